// The forms a server command is written in around the engine's own command, engine-neutral: programs that run
// another (exec, nohup, env, sudo, time, nice, uv run, …), container runs (`docker run … IMAGE ARGS`, podman), and
// the published images' entrypoints (each registry row's `launch.images`). Used by src/engines/launch.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ropelens/engines/launch.hpp"

namespace ropelens::launch_forms {

// A command with what it was written in: the command the engine parses, and how it was wrapped.
struct Unwrapped {
  ShellCommand command;
  std::string form;                // "docker run vllm/vllm-openai:v0.8.5"; "" for the engine's own command
  std::string image_release;       // the release the image's tag names ("0.8.5", "b5000"; "" for latest)
  std::vector<std::string> notes;  // what could not be read (an --env-file that is not on this machine)
};

// The command inside wrappers and container runs: `exec nohup env A=1 vllm serve …` is `vllm serve …` with A=1;
// `docker run --gpus all -e A=1 vllm/vllm-openai:v0.8.5 --model M` is the image's entrypoint with its arguments, the
// container's -e/--env/--env-file variables in its environment (an --env-file read relative to `base_folder`).
// An image ropelens does not know runs its arguments as the command (SGLang's images name no entrypoint). Throws
// std::invalid_argument for a `docker run` without an image, or arguments that repeat the image's entrypoint.
Unwrapped unwrapped(ShellCommand command, const std::string& base_folder);

// The entrypoint an engine's published image runs, when the image is one.
std::optional<std::vector<std::string>> image_entrypoint(const std::string& image);
// The arguments a known image runs its entrypoint with when given none (its CMD: `serve` for ollama/ollama).
std::vector<std::string> image_default_arguments(const std::string& image);
// "vllm/vllm-openai, ggml-org/llama.cpp:server…": the images whose entrypoints ropelens knows.
std::string known_images();

}  // namespace ropelens::launch_forms
