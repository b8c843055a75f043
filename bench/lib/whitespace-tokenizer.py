"""A local Hugging Face tokenizer where one whitespace-separated word is one token, written with the
`tokenizers` package so GuideLLM and AIPerf can count tokens offline exactly as the fake engine
does. Usage: python whitespace-tokenizer.py OUT_DIR"""
import json
import os
import sys

from tokenizers import Tokenizer, models, pre_tokenizers, decoders

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
words = [f"w{i}" for i in range(50000)]
common = (
    "the of and to in is it that for on was with as at be by time year people way day man thing woman life child world "
    "school state family student group country problem hand part place case week company system program question work"
).split()
vocab = {"[UNK]": 0, "[BOS]": 1, "[EOS]": 2}
for w in common + words:
    vocab.setdefault(w, len(vocab))
tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tok.decoder = decoders.WordPiece(prefix="##")  # joins words with spaces
tok.save(os.path.join(out, "tokenizer.json"))
with open(os.path.join(out, "tokenizer_config.json"), "w") as f:
    json.dump(
        {
            "tokenizer_class": "PreTrainedTokenizerFast",
            "unk_token": "[UNK]",
            "bos_token": "[BOS]",
            "eos_token": "[EOS]",
            "model_max_length": 1000000,
        },
        f,
    )
with open(os.path.join(out, "special_tokens_map.json"), "w") as f:
    json.dump({"unk_token": "[UNK]", "bos_token": "[BOS]", "eos_token": "[EOS]"}, f)
print(out)
