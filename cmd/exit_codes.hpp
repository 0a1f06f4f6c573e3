#pragma once
// convcheck's exit contract, for every subcommand:
//   0  every strategy agreed with the reference on every case (skips allowed)
//   1  at least one mismatch or failing strategy was found
//   2  bad usage or bad input (CLI values, descriptors, case files), or a strategy the user named that was judged on
//      no case (core/run/judged.hpp); one line on stderr says what and where

namespace convcheck {

inline constexpr int exit_agreed = 0;
inline constexpr int exit_mismatch = 1;
inline constexpr int exit_bad_input = 2;

} // namespace convcheck
