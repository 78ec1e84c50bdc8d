#include <iostream>

#include "commands.hpp"
#include "generate.hpp"
#include "options.hpp"
#include "version.hpp"

namespace ropelens::cli {

void add_generate_option(CLI::App& app, Subcommands& subcommands) {
  app.add_option_function<std::string>(
         "--generate",
         [&app, &subcommands](const std::string& what) {
           subcommands.bind_all();
           const CliReference cli = describe_cli(app);
           if (what == "man") write_man_page(cli, version_line(), std::cout);
           else if (what == "bash") write_bash_completion(cli, std::cout);
           else if (what == "zsh") write_zsh_completion(cli, std::cout);
           else write_fish_completion(cli, std::cout);
           throw CLI::Success();
         },
         "print the man page or a shell completion script")
      ->check(one_of(generate_choices()))
      ->trigger_on_parse()
      ->group("");  // hidden: for the build and packagers
}

}  // namespace ropelens::cli
