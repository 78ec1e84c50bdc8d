"""verify_rotary on small torch modules built here, as transformers builds its rotary embeddings."""

import sys

import pytest

import ropelens

torch = pytest.importorskip("torch", reason=f"no torch for {sys.executable} (Debian's python3-torch serves only "
                                            "/usr/bin/python3): verify_rotary untested")

CONFIG = {
    "model_type": "llama",
    "hidden_size": 512,
    "intermediate_size": 1024,
    "num_attention_heads": 8,
    "num_key_value_heads": 8,
    "num_hidden_layers": 2,
    "max_position_embeddings": 4096,
    "rope_theta": 1000000.0,
    "vocab_size": 1000,
}
HEAD_DIM = 64


def inv_freq(theta, dim=HEAD_DIM):
    # transformers' _compute_default_rope_parameters
    return 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))


class Rotary(torch.nn.Module):
    def __init__(self, theta):
        super().__init__()
        self.register_buffer("inv_freq", inv_freq(theta), persistent=False)


class Inner(torch.nn.Module):
    def __init__(self, theta):
        super().__init__()
        self.rotary_emb = Rotary(theta)
        self.embed = torch.nn.Embedding(10, 8)


class Model(torch.nn.Module):
    def __init__(self, theta, config=None):
        super().__init__()
        self.model = Inner(theta)
        if config is not None:
            self.config = config


class Config:
    def __init__(self, data):
        self._data = data

    def to_dict(self):
        return dict(self._data)


def test_a_module_built_with_theta_10000_under_a_config_of_1e6_is_flagged():
    report = ropelens.verify_rotary(Model(10000.0), CONFIG)
    assert report.codes == ["CKPT404"]
    finding = report.findings[0]
    assert finding.severity == "error"
    assert finding.facts["tensor"] == "model.rotary_emb.inv_freq"
    assert finding.message.startswith("model.rotary_emb.inv_freq is [32]: it holds the frequencies of rope_theta ≈ 10000")
    assert finding.pointer == "/rope_theta"


def test_a_module_built_with_1e6_passes():
    report = ropelens.verify_rotary(Model(1e6), CONFIG)
    assert report.findings == [] and report.errors == 0 and not report.failed()


def test_the_module_config_is_read_and_layer_buffers_are_named():
    module = Model(1e6, config=Config(CONFIG))
    assert ropelens.verify_rotary(module).findings == []
    layer = torch.nn.Module()
    layer.rotary_emb = Rotary(10000.0)
    module.model.layers = torch.nn.ModuleList([torch.nn.Module(), torch.nn.Module()])
    module.model.layers[1].self_attn = layer
    report = ropelens.verify_rotary(module)
    assert report.codes == ["CKPT404"]
    assert report.findings[0].facts["tensor"] == "model.layers.1.self_attn.rotary_emb.inv_freq"


def test_a_bf16_module_matches_at_its_precision():
    assert ropelens.verify_rotary(Model(1e6).to(torch.bfloat16), CONFIG).findings == []
    assert ropelens.verify_rotary(Model(10000.0).to(torch.bfloat16), CONFIG).codes == ["CKPT404"]


def test_a_module_without_config_is_an_error():
    with pytest.raises(ropelens.Error, match="no .config"):
        ropelens.verify_rotary(Model(1e6))


def test_a_wrong_live_buffer_is_the_buffer_to_fix_not_the_config():
    finding = ropelens.verify_rotary(Model(10000.0), CONFIG).findings[0]
    assert finding.help.startswith("the module runs its buffer model.rotary_emb.inv_freq, not the config: rebuild "
                                   "that rotary embedding from the config")
    assert "transformers 4.x reads rope_theta only at the top level" in finding.help
    assert "do not change the config's rope_theta" in finding.help


def test_a_module_without_a_rotary_buffer_is_an_error_saying_what_was_looked_for():
    class NoRotary(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = torch.nn.Embedding(10, 8)
            self.register_buffer("position_ids", torch.arange(8), persistent=False)

    with pytest.raises(ropelens.Error, match="NoRotary holds no rotary buffer: looked for buffers whose name ends in "
                                             "'inv_freq'"):
        ropelens.verify_rotary(NoRotary(), CONFIG)
