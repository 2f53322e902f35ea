#pragma once
// One table from several results files: a paper's table run in pieces (one column per profile,
// so a small machine finishes whole columns in resumed chunks; see configs/gplrf_usps.yaml)
// comes back together as the paper prints it.
#include <string>
#include <vector>

#include "framework/results/aggregate.hpp"

namespace drbench {

// Pools the cells of aggregates made from the files at `paths` (same order), each made without
// t-tests. Each cell must come from exactly one file, so every cell's selection is the one its
// own file makes. The t-tests against `reference` ("" for none) run on the pooled cells, pairing
// repeats by partition seed, so a method and its reference may sit in different files. The files
// must agree on what a cell means: k, kNN metric, split kind, partitions per split value and the
// selection rule (successive halving or not); otherwise Error names both files and the key. Each
// cell keeps its file's protocol (they may differ: the tables then show a protocol column). The
// pooled `incomplete` joins every unfinished file's sentence.
// Slices of one experiment run into files of their own (`drbench run --repeats`, `--only` or
// `--dataset` with their own --output, e.g. the tasks of a Slurm job array): files with the same
// config hash and profile are joined task by task into one, as the whole run would have written
// it, and stay in the order of their first file; other files pass unchanged. A task in two files
// of a group is refused (Error naming both and the task). A joined file is finished when its
// slices hold every task of the experiment (not under successive halving, whose task count
// depends on the first stage's results).
std::vector<ResultsFile> join_slices(std::vector<ResultsFile> files);

Aggregate combine_aggregates(const std::vector<Aggregate>& parts,
                             const std::vector<std::string>& paths, const std::string& reference);

}  // namespace drbench
