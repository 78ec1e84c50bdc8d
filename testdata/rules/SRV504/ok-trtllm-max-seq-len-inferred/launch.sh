trtllm-serve Qwen/Qwen3-8B --max_seq_len 40960 --tp_size 2
