#include "core/problem/generators.hpp"

#include "core/problem/precision_table.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <tuple>

#include "core/problem/mix64.hpp"
#include "core/problem/direction.hpp"
#include "core/problem/fields.hpp"
#include "core/problem/op.hpp"
#include "core/problem/seam_draws.hpp"
#include "core/problem/witness_reach.hpp"

namespace convcheck {

namespace {

// How often each tier is drawn, and the work (multiply-adds summed over the op's directions) a problem of it may
// cost before it is trimmed (0: never trimmed; small problems are small by their distributions).
struct TierRow {
  Tier tier;
  int weight;
  int64_t budget;
};
// Per mille of cases; the seam tier (core/problem/seam_draws.cpp) takes the rest, the sum of its rows' weights.
constexpr std::array<TierRow, tier_count> tier_rows{{
    {Tier::small, 0, 0},
    {Tier::medium, 8, 1'000'000},
    {Tier::large, 1, 4'000'000},
}};

// The seam tier's problems are small-tier problems with one seam row's fields drawn large, trimmed to this: about
// what the costliest small problems cost (a 2-D small problem reaches 3 * 6*8*8 * 12*12 * 5*5 = 3.3 M before the
// cost plan's share), so the loop strategies still run on most of them.
constexpr int64_t seam_budget = 30'000;

// A drawn value, and whether it is an axis's output size rather than its input size.
struct Drawn {
  int64_t value;
  bool output;
};

// One of `choices`, each as often as its weight says (RapidCheck's weightedOneOf takes only a literal list).
template <class T> rc::Gen<T> weighted(std::vector<std::pair<size_t, rc::Gen<T>>> choices) {
  size_t total = 0;
  for (const auto &choice : choices) total += choice.first;
  return rc::gen::mapcat(rc::gen::inRange<size_t>(0, total), [choices = std::move(choices)](size_t pick) {
    for (const auto &[weight, gen] : choices) {
      if (pick < weight) return gen;
      pick -= weight;
    }
    return choices.back().second;
  });
}

rc::Gen<int64_t> values_of(const Draw &draw) {
  if (draw.anchors.empty())
    return draw.lo == draw.hi ? rc::gen::just(draw.lo) : rc::gen::inRange<int64_t>(draw.lo, draw.hi + 1);
  return rc::gen::map(rc::gen::pair(rc::gen::elementOf(draw.anchors), rc::gen::inRange<int64_t>(-1, 2)),
                      [lo = draw.lo, hi = draw.hi](const std::pair<int64_t, int64_t> &seam) {
                        return std::clamp(seam.first + seam.second, lo, hi);
                      });
}

// One field's distribution in one tier, each value at most `cap` in magnitude when cap > 0.
rc::Gen<Drawn> drawn(const Distribution &distribution, int64_t cap) {
  std::vector<std::pair<size_t, rc::Gen<Drawn>>> choices;
  for (const Draw &draw : distribution)
    choices.emplace_back(static_cast<size_t>(draw.weight),
                         rc::gen::map(values_of(draw), [cap, output = draw.output](int64_t value) {
                           return Drawn{cap > 0 ? std::clamp(value, -cap, cap) : value, output};
                         }));
  return weighted(std::move(choices));
}

// Raises the paddings of one axis, evenly, until the dilated kernel fits; a crop is kept where it leaves room.
SpatialAxis fit(SpatialAxis axis) {
  const int64_t deficit = axis.dilated_kernel() - (axis.in + axis.pad_begin + axis.pad_end);
  if (deficit <= 0) return axis;
  axis.pad_begin += deficit / 2;
  axis.pad_end += deficit - deficit / 2;
  return axis;
}

// The fields trimming must not halve: a seam-tier row's own (per-axis ones on the width axis only).
struct Kept {
  bool batch = false, width_in = false, groups = false, channels = false, width_kernel = false;
};

Kept kept_by(const SeamDraw *seam) {
  if (seam == nullptr) return {};
  const bool channels = seam->find("in_channels") != nullptr || seam->find("out_channels") != nullptr;
  return {seam->find("batch") != nullptr, seam->find("in_size") != nullptr,
          seam->find("groups") != nullptr || (channels && seam->group_kind == GroupKind::depthwise), channels,
          seam->find("kernel_size") != nullptr};
}

// An axis whose padding gives more outputs than the kernel needs to fit (padding alone can give a 1-point input 7
// outputs), or nullptr; `fit` of it without padding is what trimming puts in its place.
SpatialAxis *overpadded(Problem &p) {
  for (int64_t a = p.first_axis(); a < max_ndims; ++a) {
    SpatialAxis &axis = p.axes[static_cast<size_t>(a)];
    SpatialAxis bare = axis;
    bare.pad_begin = bare.pad_end = 0;
    if (fit(bare).out() < axis.out()) return &axis;
  }
  return nullptr;
}

// Halves what costs most until the problem's work is within `budget`: the largest of the batch and the spatial
// input sizes first, then the groups, then the channels per group, so that channel seams survive trimming; a
// seam-tier problem's own fields are kept, and then the kernel sizes are halved and the paddings dropped
// (medium and large problems are within budget before those steps).
void trim(Problem &p, int64_t budget, Kept kept = {}) {
  const auto work = [&p] { return static_cast<int64_t>(directions(p.op).size()) * p.multiply_adds(); };
  const int64_t width = max_ndims - 1;
  while (budget > 0 && work() > budget) {
    int64_t spare = 1;
    int64_t *largest = kept.batch ? &spare : &p.batch;
    for (int64_t a = p.first_axis(); a < max_ndims; ++a)
      if (!(kept.width_in && a == width) && p.axes[static_cast<size_t>(a)].in > *largest)
        largest = &p.axes[static_cast<size_t>(a)].in;
    int64_t *kernel = &spare;
    for (int64_t a = p.first_axis(); a < max_ndims; ++a)
      if (!(kept.width_kernel && a == width) && p.axes[static_cast<size_t>(a)].kernel > *kernel)
        kernel = &p.axes[static_cast<size_t>(a)].kernel;
    if (*largest > 1) {
      *largest = (*largest + 1) / 2;
    } else if (p.groups > 1 && !kept.groups) {
      const int64_t in_per_group = p.in_channels_per_group(), out_per_group = p.out_channels_per_group();
      p.groups = (p.groups + 1) / 2;
      p.in_channels = p.groups * in_per_group;
      p.out_channels = p.groups * out_per_group;
    } else if (!kept.channels && std::max(p.in_channels_per_group(), p.out_channels_per_group()) > 1) {
      const bool in = p.in_channels_per_group() >= p.out_channels_per_group();
      int64_t &channels = in ? p.in_channels : p.out_channels;
      channels = p.groups * ((channels / p.groups + 1) / 2);
    } else if (*kernel > 1) {
      *kernel = (*kernel + 1) / 2;
    } else if (SpatialAxis *padded = overpadded(p); padded != nullptr) {
      padded->pad_begin = padded->pad_end = 0;
    } else {
      break; // only kept fields are left: the seam rows are sized so that this does not happen (generators_test)
    }
    for (int64_t a = p.first_axis(); a < max_ndims; ++a)
      p.axes[static_cast<size_t>(a)] = fit(p.axes[static_cast<size_t>(a)]);
  }
}

// The problems of one tier and rank: each field drawn from its row of core/problem/fields.cpp, then made valid by
// construction (channels are per-group counts times the groups; an output size becomes the input size that
// gives it; padding is raised just enough for a non-empty output), then trimmed to the tier's budget. With a
// seam row (the seam tier: `tier` is small), the row's fields are drawn from the row instead, uncapped, on the
// width axis only for a per-axis field, and kept by trimming.
rc::Gen<Problem> problems_of(const TierRow &tier, int64_t ndims, const SeamDraw *seam = nullptr) {
  const int64_t width = max_ndims - 1;
  std::vector<rc::Gen<Drawn>> fields;
  std::vector<std::optional<rc::Gen<Drawn>>> seam_fields;
  for (const IntField &field : int_fields()) {
    const Distribution &draws = field.draws[static_cast<size_t>(tier.tier)];
    fields.push_back(draws.empty() ? rc::gen::just(Drawn{field.neutral, false}) // never drawn: see below
                                   : drawn(draws, ndims == 3 ? field.cap_3d[static_cast<size_t>(tier.tier)] : 0));
    const Distribution *large = seam == nullptr ? nullptr : seam->find(field.name);
    seam_fields.push_back(large == nullptr ? std::nullopt : std::optional(drawn(*large, 0)));
  }
  std::vector<std::pair<const WordField *, rc::Gen<std::string>>> words;
  for (const WordField &field : word_fields())
    if (field.fuzz_values != nullptr) words.emplace_back(&field, rc::gen::elementOf(field.fuzz_values(ndims)));
  std::vector<std::pair<size_t, rc::Gen<Precision>>> precisions;
  for (const PrecisionRow &row : precision_table())
    if (row.fuzz_weight > 0)
      precisions.emplace_back(static_cast<size_t>(row.fuzz_weight), rc::gen::just(row.precision));
  const rc::Gen<Precision> precision = weighted(std::move(precisions));
  const rc::Gen<GroupKind> group_kind =
      rc::gen::weightedElement<GroupKind>({{4, GroupKind::dense}, {3, GroupKind::grouped}, {2, GroupKind::depthwise}});
  const GroupKind seam_kind = seam == nullptr ? GroupKind::any : seam->group_kind;
  const Kept kept = kept_by(seam);
  const int64_t budget = seam == nullptr ? tier.budget : seam_budget;
  // One low-precision problem in 16 gets one direction's reduction long enough for the witness fill
  // (core/problem/witness_reach.hpp), each direction alike; the extra terms past the narrow range vary.
  const rc::Gen<std::optional<Direction>> long_reduction = rc::gen::weightedElement<std::optional<Direction>>(
      {{45, std::nullopt}, {1, Direction::output}, {1, Direction::grad_data}, {1, Direction::grad_weight}});
  const rc::Gen<int64_t> extra_terms = rc::gen::inRange<int64_t>(0, 512);

  return rc::gen::exec([=] {
    Problem p;
    p.ndims = ndims;
    std::array<bool, max_ndims> output_size{};
    for (size_t f = 0; f < fields.size(); ++f) {
      const IntField &field = int_fields()[f];
      if (field.draws[static_cast<size_t>(tier.tier)].empty()) continue; // left neutral, and no randomness spent
      for (int64_t a = field.per_axis() ? p.first_axis() : 0; a < (field.per_axis() ? max_ndims : 1); ++a) {
        const bool large = seam_fields[f].has_value() && (!field.per_axis() || a == width);
        const Drawn value = large ? **seam_fields[f] : *fields[f];
        field.set(p, a, value.value);
        output_size[static_cast<size_t>(a)] = output_size[static_cast<size_t>(a)] || (field.per_axis() && value.output);
      }
    }
    const GroupKind kind = seam_kind == GroupKind::any ? *group_kind : seam_kind;
    if (kind == GroupKind::dense) p.groups = 1;
    if (kind == GroupKind::depthwise) { // G = C = K: the channel count drawn, so it reaches channel seams too
      if (p.in_channels > 1) p.groups = p.in_channels;
      p.in_channels = p.out_channels = 1;
    }
    p.in_channels *= p.groups; // drawn per group
    p.out_channels *= p.groups;
    for (int64_t a = p.first_axis(); a < max_ndims; ++a) {
      SpatialAxis &axis = p.axes[static_cast<size_t>(a)];
      if (output_size[static_cast<size_t>(a)]) // `in` holds the output size wanted
        axis.in = std::max<int64_t>(1, (axis.in - 1) * axis.stride + axis.dilated_kernel() - axis.pad_begin - axis.pad_end);
      axis = fit(axis);
    }
    for (const auto &[field, values] : words) field->set(p, *values, field->name);
    p.precision = *precision;
    trim(p, budget, kept);
    if (const std::optional<Direction> direction = *long_reduction; direction && witness_terms(p) > 0)
      reach_terms(p, *direction, witness_terms(p) + *extra_terms % (witness_terms(p) / 4));
    return p;
  });
}

// The weight of each rank in every tier: 1-D and 3-D one case in five, 2-D three in five.
constexpr std::array<std::pair<int64_t, size_t>, 3> rank_weights{{{1, 1}, {2, 3}, {3, 1}}};

// Every rank of `tiers`, each tier by its weight, and with `seams` the seam tier's rows by theirs; the small tier
// takes what is left of 1000.
rc::Gen<Problem> problems_of(std::span<const TierRow> tiers, bool seams) {
  std::vector<std::pair<size_t, rc::Gen<Problem>>> choices;
  int64_t rest = 1000;
  for (const TierRow &tier : tiers) rest -= tier.weight;
  for (const SeamDraw &row : seam_draws()) rest -= seams ? row.weight : 0;
  for (const TierRow &tier : tiers)
    for (const auto &[ndims, weight] : rank_weights)
      choices.emplace_back(static_cast<size_t>(tier.tier == Tier::small ? rest : tier.weight) * weight,
                           problems_of(tier, ndims));
  for (const SeamDraw &row : seams ? seam_draws() : std::span<const SeamDraw>())
    for (const auto &[ndims, weight] : rank_weights)
      choices.emplace_back(static_cast<size_t>(row.weight) * weight, problems_of(tier_rows[0], ndims, &row));
  return weighted(std::move(choices));
}

// Each draw's op: a conv drawn as above made that op's problem by its row (core/problem/op.cpp: a deconv is the drawn
// conv transposed, so the conv's corners, seams and trimming carry over), each op as often as its row's fuzz weight
// says (conv 3, deconv 1: a deconv one case in four).
rc::Gen<Problem> with_ops(rc::Gen<Problem> convs) {
  std::vector<std::pair<size_t, rc::Gen<Op>>> ops;
  for (const OpInfo &row : op_table())
    if (row.fuzz_weight > 0) ops.emplace_back(static_cast<size_t>(row.fuzz_weight), rc::gen::just(row.op));
  return rc::gen::map(rc::gen::tuple(std::move(convs), weighted(std::move(ops)),
                                     rc::gen::inRange<uint64_t>(0, uint64_t{1} << 62)),
                      [](const std::tuple<Problem, Op, uint64_t> &draw) {
                        const auto &[conv, op, pick] = draw;
                        return info(op).from_conv(conv, pick);
                      });
}

} // namespace

rc::Gen<Problem> problems() { return with_ops(problems_of(tier_rows, true)); }

rc::Gen<Problem> problems(Tier tier) {
  return with_ops(problems_of(std::span(&tier_rows[static_cast<size_t>(tier)], 1), false));
}

rc::Gen<Problem> convs() { return problems_of(tier_rows, true); }

rc::Gen<Problem> convs(Tier tier) { return problems_of(std::span(&tier_rows[static_cast<size_t>(tier)], 1), false); }

rc::Gen<Problem> seam_problems() { return with_ops(problems_of({}, true)); }

int64_t seam_tier_budget() { return seam_budget; }

int64_t tier_budget(Tier tier) { return tier_rows[static_cast<size_t>(tier)].budget; }

Problem generate_problem(uint64_t seed, uint64_t case_index) {
  static const rc::Gen<Problem> generator = problems();
  const rc::Random random(rc::Random::Key{mix64(seed), mix64(seed ^ 0x636f6e76ULL), mix64(case_index),
                                          mix64(case_index ^ 0x63617365ULL)});
  return generator(random, rc::kNominalSize).value();
}

} // namespace convcheck
