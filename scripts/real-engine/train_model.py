"""Trains the real-engine example's model: a tiny Llama on CPU, with a SentencePiece tokenizer.

Writes a Hugging Face folder (config.json, model.safetensors, tokenizer.model and the
tokenizer files transformers reads) that llama.cpp's converter turns into GGUF, and that HELM
loads as the deployment's tokenizer, so both count tokens alike.

Why SentencePiece: llama.cpp's converter accepts a BPE tokenizer only when its pre-tokenizer is
on a list of known ones; the SentencePiece path of the Llama architecture has no such check.
Why the load words: the load half's synthetic prompts are made of a fixed list of English words
(src/load/workload.ts), one token per word in its own count. Putting the words in the
tokenizer's training text makes each one a single piece, so a synthetic prompt of N words is
close to N tokens for the server too.

Reproducible: every random draw is seeded and torch runs on one thread (the order of a
multi-threaded reduction can change the last bit of a weight, and so, rarely, an answer). And the
CPU kernels are pinned to AVX2 (CPU_DISPATCH below, set before torch loads): torch, MKL and oneDNN
otherwise pick the widest instructions the CPU has, and the same seeded training on a CPU with
AVX-512 and AMX ended 1500 steps with other weights (test accuracy 0.585 against 0.5425) than on
the CPU that made the committed model. Every x86-64 CPU a runner has supports AVX2, and MKL's
conditional numerical reproducibility (MKL_CBWR) makes its results the same on all of them.
"""

import argparse
import json
import math
import os
import random
import re
import time

# Before torch is imported: the libraries read these once, when they load.
CPU_DISPATCH = {"ATEN_CPU_CAPABILITY": "avx2", "MKL_CBWR": "AVX2", "ONEDNN_MAX_CPU_ISA": "AVX2"}
os.environ.update(CPU_DISPATCH)

import sentencepiece as spm  # noqa: E402
import torch  # noqa: E402
from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM  # noqa: E402

from make_task import LETTERS, TASK_COUNT, TASK_SEED, prompt, question, test_questions  # noqa: E402

ANSWER_WEIGHT = 20.0
CHAT_TEMPLATE = "{% for message in messages %}{{ message['content'] }}{% endfor %}"
WORKLOAD_TS = os.path.join(os.path.dirname(__file__), "..", "..", "src", "load", "workload.ts")


def load_words() -> list:
    source = open(WORKLOAD_TS, encoding="utf-8").read()
    block = source[source.index("const VOCABULARY") : source.index(").split(' ')")]
    return " ".join(re.findall(r"'([^']*)'", block)).split()


TASK = test_questions(TASK_SEED, TASK_COUNT)


def training_text(rng: random.Random) -> str:
    # Half the questions HELM will ask (a lookup the model memorizes: a 1.25 M-parameter model
    # does not learn the addition-and-match skill well enough in a few CPU minutes, about 40 %),
    # half fresh ones with the same operands in other option orders.
    if rng.random() < 0.5:
        return prompt(TASK[rng.randrange(len(TASK))], with_answer=True)
    return prompt(question(rng, rng.randrange(10), rng.randrange(10)), with_answer=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--intermediate", type=int, default=512)
    parser.add_argument("--vocab", type=int, default=768)
    args = parser.parse_args()

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    words = load_words()
    # A fresh folder: transformers prefers a stale tokenizer.json to the new tokenizer.model.
    os.makedirs(args.out, exist_ok=False)
    started = time.time()

    corpus_file = os.path.join(args.out, "tokenizer-corpus.txt")
    with open(corpus_file, "w", encoding="utf-8") as f:
        for _ in range(4000):
            f.write(training_text(rng).replace("\n", " ") + "\n")
        f.write(" ".join(words) + "\n")
    here = os.getcwd()
    os.chdir(args.out)
    spm.SentencePieceTrainer.train(
        # Relative names, run from the output folder: the model file records both, and an
        # absolute temporary path would make its hash differ from one build to the next.
        input="tokenizer-corpus.txt",
        model_prefix="tokenizer",
        vocab_size=args.vocab,
        model_type="bpe",
        byte_fallback=True,
        split_digits=True,
        character_coverage=1.0,
        # As llama.cpp tokenizes: no Unicode normalization, spaces kept as they are.
        normalization_rule_name="identity",
        remove_extra_whitespaces=False,
        hard_vocab_limit=False,
        user_defined_symbols=[],
        unk_id=0,
        bos_id=1,
        eos_id=2,
        pad_id=-1,
        num_threads=1,
        minloglevel=2,
        # BPE training has no sampling; keep every sentence so none is drawn at random.
        shuffle_input_sentence=False,
    )
    os.chdir(here)
    os.remove(corpus_file)
    os.remove(os.path.join(args.out, "tokenizer.vocab"))
    # The Hugging Face tokenizer that HELM will load, converted from the SentencePiece model
    # (tokenizer.json beside tokenizer.model). Training text is encoded with it too, so the
    # model learns the token sequences that llama.cpp's SentencePiece tokenizer produces.
    with open(os.path.join(args.out, "tokenizer_config.json"), "w") as f:
        json.dump(
            {
                "tokenizer_class": "LlamaTokenizer",
                "bos_token": "<s>",
                "eos_token": "</s>",
                "unk_token": "<unk>",
                "add_bos_token": True,
                "add_eos_token": False,
                "legacy": False,
                "model_max_length": 2048,
                # The chat API sends HELM's prompt as one user message; the model was trained on
                # the bare prompt, so the template is the messages' text and nothing else (the
                # converter writes it into the GGUF; llama-server applies it with --jinja).
                "chat_template": CHAT_TEMPLATE,
            },
            f,
            indent=2,
        )
    tokenizer = AutoTokenizer.from_pretrained(args.out)
    tokenizer.save_pretrained(args.out)
    vocab_size = len(tokenizer)

    config = LlamaConfig(
        vocab_size=vocab_size,
        hidden_size=args.hidden,
        intermediate_size=args.intermediate,
        num_hidden_layers=args.layers,
        num_attention_heads=args.hidden // 64,
        num_key_value_heads=args.hidden // 64,
        max_position_embeddings=2048,
        rms_norm_eps=1e-5,
        bos_token_id=1,
        eos_token_id=2,
        tie_word_embeddings=False,
    )
    model = LlamaForCausalLM(config)
    params = sum(p.numel() for p in model.parameters())
    print(f"train: {params / 1e6:.2f} M parameters, vocabulary {vocab_size}", flush=True)

    def batch():
        rows = []
        for _ in range(args.batch):
            ids = [1] + tokenizer.encode(training_text(rng), add_special_tokens=False) + [2]
            rows.append(ids)
        width = max(len(r) for r in rows)
        input_ids = torch.full((len(rows), width), 2, dtype=torch.long)
        weights = torch.zeros((len(rows), width))
        for i, r in enumerate(rows):
            input_ids[i, : len(r)] = torch.tensor(r)
            weights[i, 1 : len(r)] = 1.0
            # The answer letter (before "\n" and </s>) is the one token the task is about; the
            # rest of the prompt is a fixed frame or random options. Weighting it makes the
            # few minutes of training count.
            weights[i, len(r) - 3] = ANSWER_WEIGHT
        return input_ids, weights

    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01, betas=(0.9, 0.95))
    warmup = 100

    def lr_at(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * (step - warmup) / (args.steps - warmup)))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_at)
    model.train()
    for step in range(args.steps):
        input_ids, weights = batch()
        logits = model(input_ids=input_ids).logits[:, :-1]
        per_token = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), input_ids[:, 1:].reshape(-1), reduction="none")
        loss = (per_token * weights[:, 1:].reshape(-1)).sum() / weights[:, 1:].sum()
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        if step % 100 == 0 or step == args.steps - 1:
            print(f"train: step {step} loss {loss.item():.3f} ({time.time() - started:.0f} s)", flush=True)

    # Accuracy on the task's questions, greedy, as HELM will ask them (zero-shot).
    model.eval()
    correct = 0
    questions = TASK
    with torch.no_grad():
        for q in questions:
            ids = [1] + tokenizer.encode(prompt(q, with_answer=False), add_special_tokens=False)
            logits = model(input_ids=torch.tensor([ids])).logits[0, -1]
            answer = tokenizer.decode([int(logits.argmax())]).strip()
            correct += answer == LETTERS[q["correct"]]
    accuracy = correct / len(questions)
    print(f"train: test accuracy {accuracy:.3f} (chance 0.25)", flush=True)

    model.save_pretrained(args.out)
    with open(os.path.join(args.out, "training.json"), "w") as f:
        json.dump(
            {
                "parameters": params,
                "steps": args.steps,
                "seed": args.seed,
                "torch_accuracy": accuracy,
                "cpu_dispatch": {**CPU_DISPATCH, "torch_capability": torch.backends.cpu.get_cpu_capability()},
                "train_seconds": round(time.time() - started, 1),
            },
            f,
            indent=2,
        )


if __name__ == "__main__":
    main()
