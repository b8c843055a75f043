"""Writes the real-engine example's task: a custom_mcqa JSONL of addition questions.

"What is 7 + 5?" with four numeric options, one of them the sum and three near misses (the sum
plus or minus 1, 2 or 10), in a random order. Operands are 0..9, so there are only 100 facts: the
model must learn the addition table (a lookup) and then find the option that holds the answer
and name its letter. A quantization that blurs either step loses answers, which is what the
gate is meant to see. Chance is 25 %.

Seeded: the same seed writes byte-identical files. The `test` instances are what HELM evaluates;
the model is trained on them and on fresh questions alike (train_model.py): it is asked what it
was taught, as a lookup, and the gate measures what a quantization does to what it knows.
"""

import argparse
import json
import random

LETTERS = "ABCD"
TASK_SEED = 15
TASK_COUNT = 400
INSTRUCTIONS = "The following are multiple choice questions (with answers).\n"


def question(rng: random.Random, a: int, b: int) -> dict:
    answer = a + b
    distractors = set()
    while len(distractors) < 3:
        candidate = answer + rng.choice([-10, -2, -1, 1, 2, 10, 3, -3])
        if candidate >= 0 and candidate != answer:
            distractors.add(candidate)
    options = [answer, *sorted(distractors)]
    rng.shuffle(options)
    return {"question": f"What is {a} + {b}?", "options": options, "correct": options.index(answer)}


def instance(q: dict, split: str, index: int) -> dict:
    return {
        "input": {"text": q["question"]},
        "references": [
            {"output": {"text": str(option)}, "tags": ["correct"] if i == q["correct"] else []}
            for i, option in enumerate(q["options"])
        ],
        "split": split,
        "id": f"{split}{index}",
    }


def prompt(q: dict, with_answer: bool) -> str:
    """The text HELM's multiple_choice_joint adapter builds for one question (zero-shot)."""
    text = INSTRUCTIONS + "\nQuestion: " + q["question"] + "\n"
    for letter, option in zip(LETTERS, q["options"]):
        text += f"{letter}. {option}\n"
    text += "Answer:"
    if with_answer:
        text += " " + LETTERS[q["correct"]] + "\n"
    return text


def test_questions(seed: int, count: int) -> list:
    rng = random.Random(seed)
    return [question(rng, rng.randrange(10), rng.randrange(10)) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True, help="the JSONL file to write")
    parser.add_argument("--seed", type=int, default=TASK_SEED)
    parser.add_argument("--test", type=int, default=TASK_COUNT)
    args = parser.parse_args()
    with open(args.out, "w", encoding="utf-8") as f:
        for i, q in enumerate(test_questions(args.seed, args.test)):
            f.write(json.dumps(instance(q, "test", i)) + "\n")


if __name__ == "__main__":
    main()
