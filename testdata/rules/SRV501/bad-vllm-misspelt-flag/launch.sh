vllm serve Qwen/Qwen3-8B --max-model-lenn 32768
