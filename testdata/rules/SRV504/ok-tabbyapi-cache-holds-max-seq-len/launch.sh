python main.py --model-dir /models --model-name Qwen3-8B --max-seq-len 32768 --cache-size 32768
