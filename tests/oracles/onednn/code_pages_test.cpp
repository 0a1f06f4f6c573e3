#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstring>

#include <gtest/gtest.h>

#include "core/numerics/case.hpp"
#include "core/problem/descriptor.hpp"
#include "core/numerics/reference.hpp"
#include "core/run/verify.hpp"
#include "oracles/onednn/onednn.hpp"
#include "oracles/onednn/code_pages.hpp"

namespace convcheck {

namespace {

// Two shapes whose blocked path JIT-compiles direct kernels and reorders in every direction.
Case case_of(const char *descriptor) { return make_case(parse_descriptor(descriptor), FillMode::normal, 3, 1); }

} // namespace

// Kernels created, run and destroyed over and over, two shapes taking turns, land in the same pooled pages: the
// pool all but stops growing after the second round, and every later round computes bit for bit what the first did, which
// agreed with the reference. (oneDNN 3.13 maps a few more buffers in the second round than in the first, 67 against
// 60 here, and none after: some of its kernels outlive their primitive, so the second round's overlap the first's.)
TEST(OnednnCodePages, KernelsReusePooledPagesAndComputeTheSame) {
  if (!onednn_code_pages_enabled())
    GTEST_SKIP() << "the pool is off: compiled out under the sanitizers, or libdnnl not found";
  const Case cases[] = {case_of("mb2ic16ih9iw9oc32kh3kw3sh2pt1pb1pl1pr1_nhwc"),
                            case_of("g4mb1ic32ih7iw8oc32kh3kw2dlh2pl1pr2")};
  RunResults first[2];
  for (int i = 0; i < 2; ++i) {
    first[i] = onednn_results(cases[i], OnednnPath::blocked);
    const Reference reference = compute_reference(cases[i]);
    for (Direction direction : all_directions) {
      const RunResult &run = first[i].at(direction);
      ASSERT_FALSE(run.result.empty()) << run.error << run.skipped;
      EXPECT_NE(judge("onednn", direction, run.result, reference[direction]).verdict, Verdict::failed)
          << "case " << i << " " << to_string(direction);
    }
  }
  EXPECT_GT(onednn_code_page_counts().mapped, 0u);

  constexpr int rounds = 10;
  CodePageCounts after_second_round;
  for (int round = 1; round < rounds; ++round) {
    for (int i = 0; i < 2; ++i) {
      const RunResults again = onednn_results(cases[i], OnednnPath::blocked);
      for (Direction direction : all_directions) {
        const Tensor &expected = first[i].at(direction).result;
        const Tensor &got = again.at(direction).result;
        ASSERT_EQ(got.shape(), expected.shape());
        EXPECT_EQ(std::memcmp(got.data<float>(), expected.data<float>(), sizeof(float) * got.size()), 0)
            << "round " << round << " case " << i << " " << to_string(direction);
      }
    }
    if (round == 1) after_second_round = onednn_code_page_counts();
  }
  const CodePageCounts after = onednn_code_page_counts();
  // At most a buffer or two more: oneDNN 3.13 sometimes frees a kernel only after the next one asked for its buffer
  // (66 after the second round and 67 after the tenth in 1 of about 8 runs here), never more.
  EXPECT_LE(after.mapped, after_second_round.mapped + 2);
  EXPECT_GE(after.reused - after_second_round.reused, static_cast<size_t>(2 * (rounds - 2)));
}

// Only oneDNN's code buffers are pooled: a mapping anyone else makes executable and unmaps is really unmapped, so
// the next mapping of that size comes back zero-filled, as mmap promises.
TEST(OnednnCodePages, OtherMappingsAreUnmappedAsAsked) {
  constexpr size_t length = 256 * 1024; // the size of a oneDNN code buffer
  const CodePageCounts before = onednn_code_page_counts();
  for (int i = 0; i < 3; ++i) {
    void *mapping = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(mapping, MAP_FAILED);
    const auto *bytes = static_cast<const unsigned char *>(mapping);
    EXPECT_TRUE(std::all_of(bytes, bytes + length, [](unsigned char b) { return b == 0; })) << "mapping " << i;
    std::memset(mapping, 0xc3, length);
    ASSERT_EQ(mprotect(mapping, length, PROT_READ | PROT_WRITE | PROT_EXEC), 0);
    ASSERT_EQ(mprotect(mapping, length, PROT_READ | PROT_WRITE), 0);
    ASSERT_EQ(munmap(mapping, length), 0);
  }
  const CodePageCounts after = onednn_code_page_counts();
  EXPECT_EQ(after.mapped, before.mapped);
  EXPECT_EQ(after.reused, before.reused);
}

} // namespace convcheck
