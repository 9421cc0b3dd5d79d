// `zkpipe worker`'s own flags, each declared once: its name, its value's name, its default,
// what it means and how it sets queue::WorkerOptions. The defaults are WorkerOptions' own
// member values (host/queue/queue_worker.hpp), so each number is written in one place. The
// options_description (and so --help), the usage line, the parsing and its errors, and the
// README's table under "## A fleet on PostgreSQL" (`zkpipe worker --help --markdown`) are all
// made from worker_flags(). --queue, --config and key=value are every queue command's
// (queue_options.hpp, options.hpp), not declared here.
#pragma once

#include "queue_worker.hpp"

#include <boost/program_options.hpp>

#include <functional>
#include <string>
#include <vector>

namespace zkp::cli {

struct WorkerFlag {
  const char* name;        // "lease-ms": --lease-ms
  const char* value_name;  // "MS"; nullptr: a switch, which takes no value
  // The default as the command line spells it (code in the README); "": none, or `words`.
  std::string default_text;
  const char* words;  // a default the worker computes, as the README says it; nullptr: none
  std::string meaning;
  // A fresh value semantic (type, default, value name) for an options_description, which owns it.
  std::function<boost::program_options::value_semantic*()> semantic;
  // Sets the field of `options` from the parsed command line; throws UsageError for a value out
  // of range. Runs in the table's order, so a flag may depend on one before it. Empty for a
  // flag that worker_command.cpp parses itself (--curves).
  std::function<void(const boost::program_options::variables_map&, queue::WorkerOptions&)> set;
};

// In the order --help, the usage line and the README list them.
const std::vector<WorkerFlag>& worker_flags();

// Adds every flag of worker_flags() to `d`.
void add_worker_flags(boost::program_options::options_description& d);

// WorkerOptions from a parsed command line: every flag's setter, in order (not --queue nor
// --curves).
queue::WorkerOptions worker_options_from(const boost::program_options::variables_map& values);

// "zkpipe worker --queue URL [--id NAME] ... [--config FILE] [key=value ...]", wrapped.
const std::string& worker_usage();

// The README's table of the flags, as markdown.
std::string worker_markdown_table();

}  // namespace zkp::cli
