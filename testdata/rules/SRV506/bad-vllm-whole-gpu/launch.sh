vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 1
