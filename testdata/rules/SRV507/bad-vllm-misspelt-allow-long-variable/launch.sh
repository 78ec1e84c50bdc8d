VLLM_ALLOW_LONG_MAX_LEN=1 vllm serve Qwen/Qwen3-8B --max-model-len 32768
