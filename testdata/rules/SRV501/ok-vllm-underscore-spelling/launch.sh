vllm serve Qwen/Qwen3-8B --max_model_len 32768 --tensor-parallel-size 1
