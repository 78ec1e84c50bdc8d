#!/bin/sh
# Qwen3-8B on vLLM at 131072 tokens, without extending RoPE: vLLM starts (the variable lifts its length check)
# and serves the model past its trained 40960 tokens.
export CUDA_VISIBLE_DEVICES=0
VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve Qwen/Qwen3-8B \
  --max-model-len 131072 \
  --gpu-memory-utilization 0.9
