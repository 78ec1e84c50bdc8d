python main.py --model-name Qwen3-8B --max-seq-len 40000 --cache-size 40000
