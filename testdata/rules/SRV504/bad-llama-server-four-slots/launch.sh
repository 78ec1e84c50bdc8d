llama-server -m model.gguf -c 32768 -np 4
