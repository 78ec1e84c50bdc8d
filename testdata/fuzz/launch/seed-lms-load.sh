lms load mlx-community/Qwen3-8B-4bit --context-length 65536 -y --parallel 4 --gpu max
lms load qwen3-8b -c 8192 --ttl 300 --identifier q extra
lms load x-GGUF -c 1
