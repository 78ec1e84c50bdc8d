// Internal to the normalizer: the KV-cache shape of a GGUF file (gguf_kv_shape.cpp).
#pragma once

#include <string>

#include "ropelens/input/gguf.hpp"
#include "ropelens/model/model.hpp"

namespace ropelens::normalize_detail {

// Key/value heads and widths, MLA's latent, llama.cpp's default cache dtype and the tensors' size; layers with no
// key/value heads become layers without attention.
void read_gguf_kv_shape(const GgufFile& file, const std::string& arch, Model& model);

}  // namespace ropelens::normalize_detail
