// A oneDNN convolution probe (docs/findings.md: the bf16 re-checks and the region of the 3.13 depth-kernel bug): one
// problem, one direction, given layouts, dtype, ISA cap and number of logical threads (a TBB arena); float64
// reference on the bf16-rounded inputs; prints the implementation and the elements over the bound (bf16 storage
// 2^-8 relative plus float32 accumulation). Build as onednn_1x1_wgrad_threads.cpp says; exit 1 when any element is
// over the bound.
// usage: probe_conv key=value...  (dir=bwd_w|bwd_d|fwd g mb ic oc id ih iw kd kh kw sd sh sw dd dh dw (1 = none)
//   pd ph pw (begin) pdr phr pwr (end) tag=nxc|ncx|any wtag=any|plain dt=bf16|f32 isa=avx512_core_bf16|... thr=N fill=exact|normal seed=S)
#include <oneapi/dnnl/dnnl.hpp>
#include <oneapi/tbb/task_arena.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>
using namespace dnnl;
using tag = memory::format_tag;
static std::map<std::string, std::string> kv;
static long I(const char *k, long d) { auto f = kv.find(k); return f == kv.end() ? d : atol(f->second.c_str()); }
static std::string S(const char *k, const char *d) { auto f = kv.find(k); return f == kv.end() ? d : f->second; }
static float bf(float x) { uint32_t u; memcpy(&u, &x, 4); u += 0x7fff + ((u >> 16) & 1); u &= 0xffff0000u; float y; memcpy(&y, &u, 4); return y; }
int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) { std::string a = argv[i]; auto e = a.find('='); kv[a.substr(0, e)] = a.substr(e + 1); }
  const std::string isa = S("isa", "");
  if (isa == "avx2") set_max_cpu_isa(cpu_isa::avx2); else if (isa == "avx512_core") set_max_cpu_isa(cpu_isa::avx512_core);
  else if (isa == "avx512_core_bf16") set_max_cpu_isa(cpu_isa::avx512_core_bf16);
  const bool three = kv.count("id") || kv.count("kd"), one = !three && !kv.count("ih") && !kv.count("kh");
  const int nsp = three ? 3 : one ? 1 : 2, off = 3 - nsp;
  const long G = I("g", 1), N = I("mb", 1), IC = I("ic", 1), OC = I("oc", 1);
  long in[3] = {I("id", 1), I("ih", 1), I("iw", 1)}, k[3] = {I("kd", 1), I("kh", 1), I("kw", 1)}, st[3] = {I("sd", 1), I("sh", 1), I("sw", 1)};
  long dl[3] = {I("dd", 1), I("dh", 1), I("dw", 1)}, pb[3] = {I("pd", 0), I("ph", 0), I("pw", 0)}, pe[3] = {I("pdr", 0), I("phr", 0), I("pwr", 0)}, out[3];
  for (int a = 0; a < 3; ++a) out[a] = (in[a] + pb[a] + pe[a] - dl[a] * (k[a] - 1) - 1) / st[a] + 1;
  const std::string dir = S("dir", "bwd_w"), dts = S("dt", "bf16"), tg = S("tag", "nxc"), wtg = S("wtag", "any");
  const auto dt = dts == "bf16" ? memory::data_type::bf16 : memory::data_type::f32;
  memory::dims sd = {N, IC}, dd = {N, OC}, wd, strides, dil, pl, pr;
  if (G > 1) wd.push_back(G);
  wd.push_back(OC / G); wd.push_back(IC / G);
  for (int a = off; a < 3; ++a) { sd.push_back(in[a]); dd.push_back(out[a]); wd.push_back(k[a]); strides.push_back(st[a]); dil.push_back(dl[a] - 1); pl.push_back(pb[a]); pr.push_back(pe[a]); }
  const int rank = 2 + nsp;
  const tag ncx = rank == 3 ? tag::ncw : rank == 4 ? tag::nchw : tag::ncdhw, nxc = rank == 3 ? tag::nwc : rank == 4 ? tag::nhwc : tag::ndhwc;
  const tag wplain = G > 1 ? (rank == 3 ? tag::goiw : rank == 4 ? tag::goihw : tag::goidhw) : (rank == 3 ? tag::oiw : rank == 4 ? tag::oihw : tag::oidhw);
  const tag dtag = tg == "nxc" ? nxc : tg == "ncx" ? ncx : tag::any;
  const tag wtag = wtg == "plain" ? wplain : tag::any;
  int bad_total = 0;
  tbb::task_arena arena(I("thr", 1));
  arena.execute([&] {
    engine eng(engine::kind::cpu, 0); stream s(eng);
    memory::desc smd(sd, dt, dtag), dmd(dd, dt, dtag), wmd(wd, dt, wtag);
    primitive_attr attr; attr.set_scratchpad_mode(scratchpad_mode::user); attr.set_fpmath_mode(fpmath_mode::strict);
    convolution_forward::primitive_desc fpd(eng, prop_kind::forward_training, algorithm::convolution_direct, smd, wmd, dmd, strides, dil, pl, pr, attr);
    primitive_desc pd; memory::desc a_md, b_md, r_md; int a_arg, b_arg, r_arg;
    if (dir == "bwd_w") { auto p = convolution_backward_weights::primitive_desc(eng, algorithm::convolution_direct, smd, wmd, dmd, strides, dil, pl, pr, fpd, attr); a_md = p.src_desc(); b_md = p.diff_dst_desc(); r_md = p.diff_weights_desc(); pd = p; a_arg = DNNL_ARG_SRC; b_arg = DNNL_ARG_DIFF_DST; r_arg = DNNL_ARG_DIFF_WEIGHTS; }
    else if (dir == "bwd_d") { auto p = convolution_backward_data::primitive_desc(eng, algorithm::convolution_direct, smd, wmd, dmd, strides, dil, pl, pr, fpd, attr); a_md = p.diff_dst_desc(); b_md = p.weights_desc(); r_md = p.diff_src_desc(); pd = p; a_arg = DNNL_ARG_DIFF_DST; b_arg = DNNL_ARG_WEIGHTS; r_arg = DNNL_ARG_DIFF_SRC; }
    else { auto p = fpd; a_md = p.src_desc(); b_md = p.weights_desc(); r_md = p.dst_desc(); pd = p; a_arg = DNNL_ARG_SRC; b_arg = DNNL_ARG_WEIGHTS; r_arg = DNNL_ARG_DST; }
    const std::string impl = pd.impl_info_str();
    // canonical float inputs, rounded to dt
    auto prod = [](const memory::dims &d) { long p = 1; for (auto v : d) p *= v; return p; };
    std::vector<float> src(prod(sd)), wei(prod(wd)), dy(prod(dd));
    std::mt19937 rng(I("seed", 1)); const bool exact = S("fill", "exact") == "exact";
    auto draw = [&] { return exact ? (float)((int)(rng() % 9) - 4) : bf(std::normal_distribution<float>(0, 1)(rng)); };
    for (auto &v : src) v = dts == "bf16" ? bf(draw()) : draw(); for (auto &v : wei) v = dts == "bf16" ? bf(draw()) : draw(); for (auto &v : dy) v = dts == "bf16" ? bf(draw()) : draw();
    auto to = [&](std::vector<float> &vals, const memory::dims &dims, tag t, const memory::desc &md) {
      memory f({dims, memory::data_type::f32, t}, eng, vals.data()); memory m(md, eng); reorder(f, m).execute(s, f, m); s.wait(); return m; };
    memory A, B;
    if (dir == "bwd_w") { A = to(src, sd, ncx, a_md); B = to(dy, dd, ncx, b_md); }
    else if (dir == "bwd_d") { A = to(dy, dd, ncx, a_md); B = to(wei, wd, wplain, b_md); }
    else { A = to(src, sd, ncx, a_md); B = to(wei, wd, wplain, b_md); }
    memory R(r_md, eng), scratch(pd.scratchpad_desc(), eng);
    std::unordered_map<int, memory> args = {{a_arg, A}, {b_arg, B}, {r_arg, R}, {DNNL_ARG_SCRATCHPAD, scratch}};
    primitive(pd).execute(s, args); s.wait();
    const memory::dims rd = dir == "bwd_w" ? wd : dir == "bwd_d" ? sd : dd;
    std::vector<float> got(prod(rd)); memory C({rd, memory::data_type::f32, dir == "bwd_w" ? wplain : ncx}, eng, got.data());
    reorder(R, C).execute(s, R, C); s.wait();
    std::vector<double> sum(got.size()), mag(got.size());
    long terms = 0; const long icg = IC / G, ocg = OC / G;
    auto sidx = [&](long n, long c, long z, long y, long x) { return (((n * IC + c) * in[0] + z) * in[1] + y) * in[2] + x; };
    auto didx = [&](long n, long c, long z, long y, long x) { return (((n * OC + c) * out[0] + z) * out[1] + y) * out[2] + x; };
    auto widx = [&](long g, long o, long c, long z, long y, long x) { return ((((g * ocg + o) * icg + c) * k[0] + z) * k[1] + y) * k[2] + x; };
    for (long n = 0; n < N; ++n) for (long g = 0; g < G; ++g) for (long o = 0; o < ocg; ++o) for (long c = 0; c < icg; ++c)
    for (long oz = 0; oz < out[0]; ++oz) for (long oy = 0; oy < out[1]; ++oy) for (long ox = 0; ox < out[2]; ++ox)
    for (long tz = 0; tz < k[0]; ++tz) for (long ty = 0; ty < k[1]; ++ty) for (long tx = 0; tx < k[2]; ++tx) {
      const long z = oz * st[0] - pb[0] + tz * dl[0], y = oy * st[1] - pb[1] + ty * dl[1], x = ox * st[2] - pb[2] + tx * dl[2];
      if (z < 0 || z >= in[0] || y < 0 || y >= in[1] || x < 0 || x >= in[2]) continue;
      const long si = sidx(n, g * icg + c, z, y, x), di = didx(n, g * ocg + o, oz, oy, ox), wi = widx(g, o, c, tz, ty, tx);
      long ri; double p;
      if (dir == "bwd_w") ri = wi, p = (double)src[si] * dy[di]; else if (dir == "bwd_d") ri = si, p = (double)dy[di] * wei[wi]; else ri = di, p = (double)src[si] * wei[wi];
      sum[ri] += p; mag[ri] += std::fabs(p);
    }
    terms = dir == "bwd_w" ? N * out[0] * out[1] * out[2] : dir == "bwd_d" ? ocg * k[0] * k[1] * k[2] : icg * k[0] * k[1] * k[2];
    const double u = std::ldexp(1, -24), gamma = (terms + 1) * u / (1 - (terms + 1) * u);
    const double storage = dts == "bf16" ? std::ldexp(1, -8) : 0;
    int bad = 0; long shown = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const double bound = 2 * gamma * mag[i] + storage * std::fabs(sum[i]) * 1.01 + 1e-37, err = std::fabs(got[i] - sum[i]);
      if (err <= bound) continue;
      ++bad;
      if (shown++ < I("show", 4)) printf("  element %zu: expected %.6g, got %.6g (bound %.3g)\n", i, sum[i], got[i], bound);
    }
    bad_total = bad;
    printf("%s %s %s: %d of %zu elements over the bound\n", dir.c_str(), impl.c_str(), isa.c_str(), bad, got.size());
  });
  return bad_total != 0;
}
