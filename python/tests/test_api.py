"""The package against the command line: the same JSON byte for byte, the same codes, the same errors."""

import inspect
import json
import re
import struct
import subprocess
import sys

import pytest

import ropelens
from conftest import data

QWEN3 = data("configs/qwen/qwen3-8b.json")
LLAMA_FIT = data("fit/llama-3.1-8b/config.json")


def qwen3_dict():
    with open(QWEN3, encoding="utf-8") as f:
        return json.load(f)


def bits(values):
    """Floats as their IEEE-754 bit patterns: equal bits, not merely close values."""
    return [struct.pack("<d", v).hex() for v in values]


class FakeConfig:
    """What transformers' PretrainedConfig offers ropelens: to_dict()."""

    def __init__(self, data):
        self._data = data

    def to_dict(self):
        return dict(self._data)


def test_version_is_the_cli_release(cli):
    line = cli.run(["--version"]).stdout.split()
    assert line[0] == "ropelens"
    assert ropelens.__version__ == line[1]
    assert ropelens.__version__.count(".") == 2


def test_check_finds_the_cli_codes_with_the_cli_json(cli):
    report = ropelens.check(QWEN3, target=131072)
    expected = cli.json(["check", QWEN3, "--target", "131072"])
    assert report.to_json() == expected
    expected_codes = [d["code"] for f in json.loads(expected)["files"] for d in f["diagnostics"]]
    assert [f.code for f in report.findings] == expected_codes
    assert "CTX201" in report.codes
    first = report.findings[0]
    assert first.code == "CTX201" and first.severity == "error"
    assert first.pointer == "/max_position_embeddings" and first.line == 14 and first.column == 30
    assert first.facts["target"] == 131072 and first.facts["trained_tokens"] == 40960
    assert report.errors == 1 and report.failed()


def test_lengths_as_strings_and_options_as_the_cli_takes_them(cli):
    report = ropelens.check(QWEN3, target="128k", select=["CTX201"], stack="vllm")
    assert report.to_json() == cli.json(["check", QWEN3, "--target", "128k", "--select", "CTX201", "--stack", "vllm"])
    assert report.codes == ["CTX201"]
    ignored = ropelens.check(QWEN3, target="128k", ignore="CTX201,CTX202")
    assert "CTX201" not in ignored.codes


def test_check_of_a_dict_is_the_cli_reading_the_same_text(cli):
    config = qwen3_dict()
    model = ropelens.load(config, name="<stdin>")
    text = model.text
    assert json.loads(text) == config
    report = ropelens.check(model, target=131072)
    assert report.to_json() == cli.json(["check", "-", "--target", "131072"], stdin=text)
    assert ropelens.check(config, target=131072).files[0].path == "<dict>"
    assert ropelens.check(FakeConfig(config), target=131072).codes == report.codes


def test_table_of_a_dict_gives_the_cli_inv_freq_exactly(cli):
    config = qwen3_dict()
    expected = json.loads(cli.json(["table", QWEN3]))
    table = ropelens.table(config)
    assert len(table.setups) == len(expected["setups"]) == 1
    assert bits(table.setups[0].inv_freq) == bits(expected["setups"][0]["inv_freq"])
    assert len(table.setups[0].inv_freq) == 64 and table.setups[0].inv_freq[0] == 1.0
    assert table.setups[0].rope_theta == 1000000.0
    from_object = ropelens.table(FakeConfig(config))
    assert bits(from_object.setups[0].inv_freq) == bits(expected["setups"][0]["inv_freq"])
    same_text = ropelens.table(ropelens.load(config, name="<stdin>"), target="128k", pairs="0,16-18")
    assert same_text.to_json() == cli.json(["table", "-", "--target", "128k", "--pairs", "0,16-18"],
                                           stdin=ropelens.load(config).text)
    assert [row["pair"] for row in same_text.setups[0].pairs] == [0, 16, 17, 18]


def test_a_truncated_config_raises_the_cli_one_line_error(cli, tmp_path):
    with open(QWEN3, encoding="utf-8") as f:
        text = f.read()
    truncated = tmp_path / "config.json"
    truncated.write_text(text[: len(text) // 2])
    with pytest.raises(ropelens.Error) as raised:
        ropelens.load(str(truncated))
    assert isinstance(raised.value, ValueError)
    message = str(raised.value)
    assert "\n" not in message and message.startswith(str(truncated))
    done = cli.run(["inspect", str(truncated)])
    assert done.returncode == 2
    assert done.stderr == f"ropelens: error: {message}\n"
    with pytest.raises(ropelens.Error, match="^<dict>: "):
        ropelens.table({"model_type": "llama", "rope_theta": 10000, "hidden_size": 4096})
    # check of that one file raises what `ropelens check` prints for it.
    with pytest.raises(ropelens.Error) as raised:
        ropelens.check(str(truncated))
    checked = cli.run(["check", str(truncated)])
    assert checked.returncode == 2
    assert checked.stderr.splitlines()[0] == f"ropelens: error: {raised.value}"
    assert str(raised.value) == message
    with pytest.raises(ropelens.Error, match="^<dict>: not a model config"):
        ropelens.check({"tokenizer_class": "LlamaTokenizer"})
    # A list, as the CLI's several paths: the unreadable file is reported in the report, the others are checked.
    report = ropelens.check([str(truncated), QWEN3], target=131072)
    assert report.unreadable == 1 and report.summary["unreadable_files"] == 1 and report.failed()
    assert "CTX201" in report.codes
    assert "2 file(s), 1 unreadable" in repr(report)
    assert [f.path for f in report.files if "error" in f.to_dict()] == [str(truncated)]


def test_an_invalid_value_is_a_finding_not_an_error(cli, tmp_path):
    config = qwen3_dict()
    config["rope_theta"] = -5
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config, indent=2))
    report = ropelens.check(str(path))
    assert report.to_json() == cli.json(["check", str(path)])
    assert any(f.pointer == "/rope_theta" and f.severity == "error" for f in report.findings), report.codes


def test_bad_options_raise_the_cli_messages(cli):
    with pytest.raises(ropelens.Error) as raised:
        ropelens.check(QWEN3, select="CTX2O1")
    done = cli.run(["check", QWEN3, "--select", "CTX2O1"])
    assert done.stderr == f"ropelens: error: {raised.value}\n"
    with pytest.raises(ropelens.Error, match="^target: "):
        ropelens.check(QWEN3, target="12x")
    with pytest.raises(ropelens.Error, match="^memory: "):
        ropelens.fit(QWEN3, memory="lots")
    with pytest.raises(ropelens.Error):
        ropelens.load(42)


def test_check_takes_every_in_process_option_of_the_cli_check(cli):
    options = cli.run(["help", "check"]).stdout.split("Examples:")[0]
    flags = set(re.findall(r"^ +(?:-\w,\s*)?(--[a-z][a-z-]+)", options, flags=re.MULTILINE))
    terminal_only = {"--format", "--output", "--color", "--quiet", "--exit-zero", "--write-baseline", "--help"}
    assert flags - terminal_only == set(ropelens.CHECK_OPTIONS.values())
    keywords = set(inspect.signature(ropelens.check).parameters) - {"source", "project"}
    assert keywords == set(ropelens.CHECK_OPTIONS)
    report = ropelens.check(QWEN3, target="128k", memory="24GiB", tp=2, kv_dtype="fp8", select="CTX,memory-over-budget",
                            trained_length=32768, fail_on="error")
    assert report.to_json() == cli.json(["check", QWEN3, "--target", "128k", "--memory", "24GiB", "--tp", "2",
                                         "--kv-dtype", "fp8", "--select", "CTX,memory-over-budget", "--trained-length", "32768",
                                         "--fail-on", "error"])
    launch = "vllm serve Qwen/Qwen3-8B --max-model-len 131072"
    served = ropelens.check([], serve=launch, model=QWEN3, stack="vllm@0.8.5")
    assert served.to_json() == cli.json(["check", "--serve", launch, "--model", QWEN3, "--stack", "vllm@0.8.5"])
    assert served.codes


def test_a_mistyped_value_names_the_nearest_one_as_the_cli_does(cli):
    for keywords, flags in (({"fail_on": "warn"}, ["--fail-on", "warn"]),
                            ({"kv_dtype": "fp9"}, ["--kv-dtype", "fp9"]),
                            ({"severity": {"CTX201": "eror"}}, ["--severity", "CTX201=eror"])):
        with pytest.raises(ropelens.Error) as raised:
            ropelens.check(QWEN3, **keywords)
        assert "did you mean" in str(raised.value)
        assert cli.run(["check", QWEN3, *flags]).stderr == f"ropelens: error: {raised.value}\n"
    with pytest.raises(ropelens.Error, match="did you mean 'fp8'"):
        ropelens.fit(LLAMA_FIT, memory="24GiB", weights="16GiB", kv_dtype="fp9")
    with pytest.raises(ropelens.Error, match="did you mean 'warning'"):
        ropelens.check(QWEN3).failed("warn")


def test_fit_gives_the_cli_max_tokens(cli):
    fit = ropelens.fit(LLAMA_FIT, memory="24GiB", weights="16GiB", kv_dtype="bf16", reserve="0")
    expected = cli.json(["fit", LLAMA_FIT, "--memory", "24GiB", "--weights", "16GiB", "--kv-dtype", "bf16",
                         "--reserve", "0"])
    assert fit.to_json() == expected
    engines = json.loads(expected)["engines"]
    assert fit.max_tokens == {e: {d: row["max_tokens"] for d, row in rows.items()} for e, rows in engines.items()}
    assert fit.max_tokens["vllm"]["bf16"] > 0
    share = ropelens.fit(ropelens.load(LLAMA_FIT), memory=24 * 2**30, weights="16GiB", reserve="10%", engine="vllm")
    assert share.to_json() == cli.json(["fit", LLAMA_FIT, "--memory", "24GiB", "--weights", "16GiB", "--reserve",
                                        "10%", "--engine", "vllm"])


def test_fit_without_a_reserve_is_the_cli_without_one(cli):
    fit = ropelens.fit(LLAMA_FIT, memory="24GiB", weights="16GiB")
    expected = cli.json(["fit", LLAMA_FIT, "--memory", "24GiB", "--weights", "16GiB"])
    assert fit.to_json() == expected
    assert json.loads(expected)["reserve"] is None


def test_fit_splits_over_gpus_as_the_cli_does(cli):
    split = ropelens.fit(LLAMA_FIT, memory="10GiB", weights="16GiB", tp=2, reserve=2**30, engine="vllm")
    assert split.to_json() == cli.json(["fit", LLAMA_FIT, "--memory", "10GiB", "--weights", "16GiB", "--tp", "2",
                                        "--reserve", "1073741824B", "--engine", "vllm"])
    assert json.loads(split.to_json())["gpus"] == 2
    with pytest.raises(ropelens.Error, match="^tp: "):
        ropelens.fit(LLAMA_FIT, memory="10GiB", tp=0)


def test_suggest_and_diff_are_the_cli_documents(cli, tmp_path):
    assert ropelens.suggest(QWEN3, target="128k").to_json() == cli.json(["suggest", QWEN3, "--target", "128k"])
    new = qwen3_dict()
    new["rope_scaling"] = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
    new_path = tmp_path / "new.json"
    new_path.write_text(json.dumps(new, indent=2))
    changed = ropelens.diff(QWEN3, str(new_path), target=131072)
    assert changed.to_json() == cli.json(["diff", QWEN3, str(new_path), "--target", "131072"])
    assert ropelens.diff(qwen3_dict(), new, target=131072).summary == changed.summary


def test_load_gives_the_cli_inspect_document(cli):
    model = ropelens.load(QWEN3)
    assert model.to_json() == cli.json(["inspect", QWEN3])
    assert model.model_type["value"] == "qwen3"
    assert ropelens.load(model) is model


def test_the_package_imports_without_torch():
    code = "import sys; sys.modules['torch'] = None; import ropelens; print(ropelens.__version__)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ropelens.__version__
