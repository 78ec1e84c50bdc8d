trtllm-serve Qwen/Qwen3-8B --max_seq_len 131072
