python main.py --model-name Qwen3-8B --max-seq-len 40960 --cache-size 16384
