kt run V3.2 --tp 2 --max-total-tokens 65536 --context-length 131072 --kt-numa-nodes 0 1 --kt-enable-dynamic-expert-update --json-model-override-args '{"rope_scaling":{"rope_type":"yarn","factor":4}}'
kt run --context-length 32768 m2 --mem-fraction-static=0.9 -H 0.0.0.0 -p 30000 --dry-run
