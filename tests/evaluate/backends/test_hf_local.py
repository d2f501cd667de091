"""The ``hf:`` backend for real: a tiny random-weight Llama and a byte-level BPE tokenizer
trained on a few lines, built and saved in the test (nothing downloaded), then
``buildds eval --model hf:<dir>`` end to end — generative and logprob scoring — checked
against transformers' own ``generate`` on the same prompts."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("tokenizers")

CHAT_TEMPLATE = ("{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}</s>{% endfor %}"
                 "{% if add_generation_prompt %}<|assistant|>{% endif %}")
LIMIT = 3


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 1-layer, 16-wide Llama with a chat template, saved as a local model folder."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    from buildds.evaluate.tasks.jbe import system_prompt

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=["<unk>", "<s>", "</s>", "<|system|>", "<|user|>", "<|assistant|>"])
    tok.train_from_iterator([system_prompt(), "科目：民法", "科目：憲法", "科目：刑法",
                             "記述が正しいかを答えよ。", "1", "0"], trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>",
                                   eos_token="</s>", pad_token="</s>")
    fast.chat_template = CHAT_TEMPLATE
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(fast), hidden_size=16, intermediate_size=32,
                         num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2,
                         max_position_embeddings=4096, bos_token_id=1, eos_token_id=2,
                         pad_token_id=2)
    folder = tmp_path_factory.mktemp("hf") / "tiny-llama"
    LlamaForCausalLM(config).save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder


def _samples(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _reference(folder: Path, messages: list[dict[str, str]]) -> tuple[str, dict[str, float]]:
    """transformers' own greedy answer (at most 1,000 new tokens, as the task asks) and the
    first step's probabilities of the tokens ``1`` and ``0``."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(folder, local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(folder, local_files_only=True)
    text = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    ids = torch.tensor([tok(text, add_special_tokens=False)["input_ids"]])
    with torch.no_grad():
        out = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=1000,
                             do_sample=False, output_scores=True, return_dict_in_generate=True,
                             pad_token_id=tok.pad_token_id)
    answer = tok.decode(out.sequences[0, ids.shape[1]:], skip_special_tokens=True)
    first = torch.log_softmax(out.scores[0][0].float(), dim=-1)
    one, zero = (tok.convert_tokens_to_ids(t) for t in ("1", "0"))
    return answer, {"1": float(first[one]), "0": float(first[zero])}


def test_hf_backend_end_to_end(tiny_model, sample_export, tmp_path):
    from buildds.commands.eval import eval_cmd
    from buildds.evaluate.tasks.jbe import build_messages, load_jbe_data

    out = tmp_path / "eval"
    result = CliRunner().invoke(eval_cmd, [
        str(sample_export), "--model", f"hf:{tiny_model}", "--scoring", "generate",
        "--scoring", "logprob", "--limit", str(LIMIT), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    slug = next(p.name for p in out.iterdir() if p.name.endswith("tiny-llama"))
    gen = _samples(out / slug / "0shot" / "samples.jsonl")
    lp = _samples(out / f"{slug}.logprob" / "0shot" / "samples.jsonl")
    items = load_jbe_data(sample_export).scored()[:LIMIT]
    assert [s["id"] for s in gen] == [s["id"] for s in lp] == [str(i["id"]) for i in items]
    for item, g, p in zip(items, gen, lp, strict=True):
        messages = [m.model_dump() for m in build_messages(item)]
        answer, first = _reference(tiny_model, messages)
        assert g["error"] is None and g["raw_output"] == answer
        # logprob: the normalised probabilities of the single-token answers 1 and 0
        total = math.exp(first["1"]) + math.exp(first["0"])
        assert p["choice_probs"]["1"] == pytest.approx(math.exp(first["1"]) / total, abs=1e-5)
        best = "1" if first["1"] >= first["0"] else "0"
        assert p["raw_output"] == best and p["parsed"] == int(best)
        assert p["score"] == float(int(best) == int(bool(item["answer"])))
    board = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert "(logprob)" in board and f"hf:{tiny_model}" in board
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["models"][0]["settings"]["backend"] == "hf"
