#include "core/storage/case_file.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <vector>

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include "core/process/forked.hpp"
#include "core/storage/hdf5_handle.hpp"
#include "core/input_error.hpp"
#include "core/problem/fields.hpp"
#include "core/numerics/dispatch_setting.hpp"
#include "core/tensor/tensor.hpp"

namespace convcheck {

namespace {

constexpr const char *format_name = "convcheck-case";
// v1 holds what a 2-D float32/float64 conv with non-negative padding needs; v2 every problem. Files are written
// as v1 whenever the problem fits it, so readers written against v1 keep working for every problem v1 can express.
constexpr int64_t oldest_version = 1, newest_version = 2;

// Whether a v1 reader can hold `problem`: v1 has no op, rank, negative padding or per-tensor formats.
bool fits_v1(const Problem &problem) {
  if (problem.op != Op::conv || problem.ndims != 2 || !problem.precision.single()) return false;
  for (const SpatialAxis &axis : problem.axes)
    if (axis.pad_begin < 0 || axis.pad_end < 0) return false;
  return true;
}

// A format's values are stored as the IEEE little-endian binary float of its row's file_bits, which holds each of
// them exactly and which h5py reads as numpy's float16, float32 or float64 (bfloat16, which numpy lacks, as float32).
// binary16 is built like h5py's own IEEE_F16LE (h5py/h5t.pyx): float32's layout with 5 exponent and 10 mantissa
// bits in 2 bytes. Values travel through double in memory: HDF5 converts exactly both ways, since each is
// representable in both.
Hdf5Handle file_type(DType dtype) {
  if (info(dtype).file_bits == 64) return Hdf5Handle(H5Tcopy(H5T_IEEE_F64LE), H5Tclose);
  Hdf5Handle type(H5Tcopy(H5T_IEEE_F32LE), H5Tclose);
  if (info(dtype).file_bits == 16 && type.valid()) {
    if (H5Tset_fields(type.get(), 15, 10, 5, 0, 10) < 0 || H5Tset_size(type.get(), 2) < 0 ||
        H5Tset_ebias(type.get(), 15) < 0)
      return Hdf5Handle(-1, H5Tclose);
  }
  return type;
}

// Whether a dataset's float type is the one `dtype` is stored as: its width, and for 16 bits binary16's fields.
bool stored_as(hid_t type, DType dtype) {
  if (H5Tget_size(type) * 8 != static_cast<size_t>(info(dtype).file_bits)) return false;
  if (info(dtype).file_bits != 16) return true;
  size_t sign = 0, exponent_position = 0, exponent_size = 0, mantissa_position = 0, mantissa_size = 0;
  return H5Tget_fields(type, &sign, &exponent_position, &exponent_size, &mantissa_position, &mantissa_size) >= 0 &&
         sign == 15 && exponent_position == 10 && exponent_size == 5 && mantissa_position == 0 &&
         mantissa_size == 10 && H5Tget_ebias(type) == 15;
}

// Debian's libhdf5 is not built thread-safe; every use of it in convcheck goes through this lock.
std::mutex &hdf5_mutex() {
  static std::mutex mutex;
  return mutex;
}

void silence_hdf5() {
  static const bool silenced = [] { return H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0; }();
  (void)silenced;
}

// --- reading ---------------------------------------------------------------------------------------------

// Values read from the file end up in error messages, which must stay one line: control characters are escaped
// (found by tests/fuzz/malformed_seeds.sh on a dtype attribute holding a newline).
std::string one_line(const std::string &text) {
  std::string escaped;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) escaped += fmt::format("\\x{:02x}", byte);
    else escaped += c;
  }
  return escaped;
}

class Reader {
public:
  Reader(std::string path, int64_t max_elements) : path_(std::move(path)), max_elements_(max_elements) {}

  [[noreturn]] void fail(const std::string &problem) const {
    throw InputError(fmt::format("case file {}: {}", path_, one_line(problem)));
  }

  Hdf5Handle open_file() const {
    std::error_code error;
    if (!std::filesystem::exists(path_, error))
      throw InputError(fmt::format("cannot open case file {}: no such file", path_));
    if (H5Fis_hdf5(path_.c_str()) <= 0) fail("not an HDF5 file");
    Hdf5Handle file(H5Fopen(path_.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file.valid()) fail("cannot be opened as HDF5 (truncated or corrupt)");
    return file;
  }

  Hdf5Handle open_group(hid_t parent, const char *name, bool required = true) const {
    if (H5Lexists(parent, name, H5P_DEFAULT) <= 0) {
      if (required) fail(fmt::format("group /{} is missing", name));
      return Hdf5Handle(-1, H5Gclose);
    }
    Hdf5Handle group(H5Gopen2(parent, name, H5P_DEFAULT), H5Gclose);
    if (!group.valid()) fail(fmt::format("/{} is not a group", name));
    return group;
  }

  Hdf5Handle open_attribute(hid_t object, const std::string &where, const char *name, H5T_class_t want,
                            const char *kind) const {
    if (H5Aexists(object, name) <= 0) fail(fmt::format("attribute {}{} is missing", where, name));
    Hdf5Handle attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
    Hdf5Handle type(H5Aget_type(attribute.get()), H5Tclose);
    Hdf5Handle space(H5Aget_space(attribute.get()), H5Sclose);
    if (!attribute.valid() || !type.valid() || H5Tget_class(type.get()) != want)
      fail(fmt::format("attribute {}{} is not {}", where, name, kind));
    if (!space.valid() || H5Sget_simple_extent_npoints(space.get()) != 1)
      fail(fmt::format("attribute {}{} is not a scalar", where, name));
    return attribute;
  }

  int64_t int_attribute(hid_t object, const std::string &where, const char *name) const {
    Hdf5Handle attribute = open_attribute(object, where, name, H5T_INTEGER, "an integer");
    int64_t value = 0;
    if (H5Aread(attribute.get(), H5T_NATIVE_INT64, &value) < 0)
      fail(fmt::format("attribute {}{} cannot be read as a 64-bit integer", where, name));
    return value;
  }

  // An integer attribute holding `count` values (a 1-D array, or a scalar when count is 1).
  std::vector<int64_t> int_array_attribute(hid_t object, const std::string &where, const char *name,
                                           int64_t count) const {
    if (H5Aexists(object, name) <= 0) fail(fmt::format("attribute {}{} is missing", where, name));
    Hdf5Handle attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
    Hdf5Handle type(H5Aget_type(attribute.get()), H5Tclose);
    Hdf5Handle space(H5Aget_space(attribute.get()), H5Sclose);
    if (!attribute.valid() || !type.valid() || H5Tget_class(type.get()) != H5T_INTEGER)
      fail(fmt::format("attribute {}{} is not an integer array", where, name));
    const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    const hssize_t points = space.valid() ? H5Sget_simple_extent_npoints(space.get()) : -1;
    if (rank < 0 || rank > 1 || points != count)
      fail(fmt::format("attribute {}{} has {} values, expected ndims {}", where, name, points, count));
    std::vector<int64_t> values(static_cast<size_t>(count));
    if (H5Aread(attribute.get(), H5T_NATIVE_INT64, values.data()) < 0)
      fail(fmt::format("attribute {}{} cannot be read as 64-bit integers", where, name));
    return values;
  }

  std::string string_attribute(hid_t object, const std::string &where, const char *name) const {
    Hdf5Handle attribute = open_attribute(object, where, name, H5T_STRING, "a string");
    Hdf5Handle type(H5Aget_type(attribute.get()), H5Tclose);
    if (H5Tis_variable_str(type.get()) > 0) {
      Hdf5Handle memory(H5Tcopy(H5T_C_S1), H5Tclose);
      H5Tset_size(memory.get(), H5T_VARIABLE);
      H5Tset_cset(memory.get(), H5Tget_cset(type.get())); // HDF5 will not convert between ASCII and UTF-8
      char *text = nullptr;
      if (H5Aread(attribute.get(), memory.get(), &text) < 0 || text == nullptr)
        fail(fmt::format("attribute {}{} cannot be read", where, name));
      std::string value(text);
      H5free_memory(text);
      return value;
    }
    const size_t size = H5Tget_size(type.get());
    if (size == 0 || size > 4096) fail(fmt::format("attribute {}{} has an absurd length {}", where, name, size));
    std::vector<char> buffer(size + 1, '\0');
    if (H5Aread(attribute.get(), type.get(), buffer.data()) < 0)
      fail(fmt::format("attribute {}{} cannot be read", where, name));
    std::string value(buffer.data(), strnlen(buffer.data(), size));
    while (!value.empty() && value.back() == ' ') value.pop_back(); // space-padded fixed strings
    return value;
  }

  // Reads a floating-point dataset; checks its shape against `expected` when given, else only its size.
  Tensor dataset(hid_t group, const std::string &where, const char *name, DType dtype,
                 const Shape *expected) const {
    const std::string full = where + name;
    Hdf5Handle dataset(H5Dopen2(group, name, H5P_DEFAULT), H5Dclose);
    if (!dataset.valid()) fail(fmt::format("dataset {} cannot be opened", full));
    Hdf5Handle type(H5Dget_type(dataset.get()), H5Tclose);
    if (!type.valid() || H5Tget_class(type.get()) != H5T_FLOAT)
      fail(fmt::format("dataset {} is not floating point", full));
    Hdf5Handle space(H5Dget_space(dataset.get()), H5Sclose);
    const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank < 0 || rank > 8) fail(fmt::format("dataset {} has an unreadable or absurd rank", full));
    std::vector<hsize_t> dims(static_cast<size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    Shape shape(dims.begin(), dims.end());
    if (expected != nullptr && shape != *expected)
      fail(fmt::format("dataset {} has shape {}, expected {}", full, format_shape(shape), format_shape(*expected)));
    // Each extent is capped on its own as well: a zero extent keeps the product at 0 however large the others
    // are, and the int64 Shape they go into would overflow (found by the sanitizer run on a [2^40, 2^40, 0] seed).
    for (hsize_t dim : dims)
      if (dim > static_cast<hsize_t>(max_elements_))
        fail(fmt::format("dataset {} has an extent of {}, more than the limit {}", full, dim, max_elements_));
    double count = 1;
    for (hsize_t dim : dims) count *= static_cast<double>(dim);
    if (count > static_cast<double>(max_elements_))
      fail(fmt::format("dataset {} has {} elements, more than the limit {}", full, count, max_elements_));
    // A recorded result (no expected shape) is kept in whatever format it was written in, for the diff to judge,
    // as its shape is; an input must be in its format's type.
    if (expected == nullptr && !stored_as(type.get(), dtype))
      for (const DTypeInfo &row : dtype_table())
        if (stored_as(type.get(), row.dtype)) {
          dtype = row.dtype;
          break;
        }
    // A narrower float type than the format's own (an h5py user's float16 inputs of a float32 case) holds only
    // values the format holds; a wider one contradicts the format.
    if (!stored_as(type.get(), dtype) && H5Tget_size(type.get()) * 8 >= static_cast<size_t>(info(dtype).file_bits))
      fail(fmt::format("dataset {} holds {}-bit floats, but {} is stored as {}-bit IEEE floats", full,
                       H5Tget_size(type.get()) * 8, to_string(dtype), info(dtype).file_bits));
    std::vector<double> values(static_cast<size_t>(count));
    if (!values.empty() && H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
      fail(fmt::format("dataset {} cannot be read (truncated?)", full));
    Tensor tensor = Tensor::uninitialized(dtype, shape);
    for (int64_t i = 0; i < tensor.size(); ++i) {
      const double value = values[static_cast<size_t>(i)];
      if (value == value && rounded_to(dtype, value) != value) // NaN is representable in every format
        fail(fmt::format("dataset {} element {} holds {}, which is not representable in {}", full, i, value,
                         to_string(dtype)));
      tensor.set(i, value);
    }
    return tensor;
  }

  // The problem of a v1 file: a 2-D conv, its fields under their v1 names, one format for every tensor.
  void read_v1_fields(hid_t group, Problem &problem) const {
    for (const IntField &field : int_fields()) {
      if (field.added_later) continue;
      if (!field.per_axis()) {
        field.set(problem, 0, int_attribute(group, "/config/", field.name));
        continue;
      }
      for (int64_t a = problem.first_axis(); a < max_ndims; ++a)
        field.set(problem, a, int_attribute(group, "/config/", field.axis_names[static_cast<size_t>(a)]));
    }
    problem.data_layout = parse_data_layout(string_attribute(group, "/config/", "data_layout"), 2,
                                            "/config/data_layout");
    problem.weight_layout = parse_weight_layout(string_attribute(group, "/config/", "weight_layout"), 2,
                                                "/config/weight_layout");
    problem.precision = Precision::uniform(parse_dtype(string_attribute(group, "/config/", "dtype"), "/config/dtype"));
  }

  // The problem of a v2 file: ndims first, then every field of core/problem/fields.hpp under its own name, the
  // per-axis ones as arrays of ndims values, outermost axis first.
  void read_v2_fields(hid_t group, Problem &problem) const {
    problem.ndims = int_attribute(group, "/config/", "ndims");
    if (problem.ndims < 1 || problem.ndims > max_ndims)
      throw InputError(fmt::format("/config/ndims {} must be 1, 2 or 3", problem.ndims));
    for (const IntField &field : int_fields()) {
      if (field.added_later && H5Aexists(group, field.name) <= 0) continue; // an older file: the neutral value
      if (!field.per_axis()) {
        field.set(problem, 0, int_attribute(group, "/config/", field.name));
        continue;
      }
      const std::vector<int64_t> values = int_array_attribute(group, "/config/", field.name, problem.ndims);
      for (int64_t i = 0; i < problem.ndims; ++i) field.set(problem, problem.first_axis() + i, values[static_cast<size_t>(i)]);
    }
    for (const WordField &field : word_fields())
      field.set(problem, string_attribute(group, "/config/", field.name), fmt::format("/config/{}", field.name));
  }

  Problem problem(hid_t file, int64_t version) const {
    Hdf5Handle group = open_group(file, "config");
    Problem problem;
    try {
      if (version == 1) read_v1_fields(group.get(), problem);
      else read_v2_fields(group.get(), problem);
      validate(problem, max_elements_);
    } catch (const InputError &error) {
      if (std::string(error.what()).starts_with("case file")) throw;
      fail(error.what());
    }
    return problem;
  }

  CaseFile read() const {
    Hdf5Handle file = open_file();
    const hid_t root = file.get();
    if (string_attribute(root, "/", "format") != format_name)
      fail(fmt::format("attribute /format is not '{}'", format_name));
    const int64_t version = int_attribute(root, "/", "format_version");
    if (version < oldest_version || version > newest_version)
      fail(fmt::format("format_version {} is not supported (this convcheck reads {} to {})", version, oldest_version,
                       newest_version));
    CaseFile result;
    Case &c = result.conv_case;
    c.problem = problem(root, version);
    Hdf5Handle inputs = open_group(root, "inputs");
    for (Role role : input_roles) {
      const Shape shape = shape_of(c.problem, role);
      c[role] = dataset(inputs.get(), "/inputs/", to_string(role).c_str(), dtype_of(c.problem, role), &shape);
    }
    read_provenance(root, c);
    read_results(root, result);
    read_finding(root, result);
    return result;
  }

  std::map<Direction, Tensor> read_results_at_root(const Problem &problem) const {
    Hdf5Handle file = open_file();
    std::map<Direction, Tensor> results;
    for (const DirectionInfo &d : directions(problem.op)) {
      if (H5Lexists(file.get(), d.name, H5P_DEFAULT) > 0)
        results[d.direction] = dataset(file.get(), "/", d.name, result_dtype(problem, d.direction), nullptr);
    }
    return results;
  }

  std::string algorithm_at_root() const {
    Hdf5Handle file = open_file();
    return H5Aexists(file.get(), "algorithm") > 0 ? string_attribute(file.get(), "/", "algorithm") : std::string();
  }

private:
  void read_provenance(hid_t root, Case &c) const {
    if (H5Aexists(root, "seed") > 0) c.seed = static_cast<uint64_t>(int_attribute(root, "/", "seed"));
    if (H5Aexists(root, "case_index") > 0)
      c.case_index = static_cast<uint64_t>(int_attribute(root, "/", "case_index"));
    // Every dispatch setting's value; a file from before a setting existed ran under the library's own choice ("").
    for (const DispatchSetting *setting : dispatch_settings()) {
      std::string &value = c.settings[setting->name];
      if (H5Aexists(root, setting->name.c_str()) <= 0) continue;
      value = string_attribute(root, "/", setting->name.c_str());
      if (setting->find(value) == nullptr) fail(setting->unknown(value) + " in attribute /" + setting->name);
    }
    // A file from before the special kinds (core/numerics/fill_special.hpp) carries none.
    try {
      if (H5Aexists(root, "fill") > 0) c.fill = parse_fill_mode(string_attribute(root, "/", "fill"));
      if (H5Aexists(root, "fill_special") > 0)
        c.special = parse_fill_special(string_attribute(root, "/", "fill_special"));
    } catch (const InputError &error) {
      fail(error.what()); // so the message names the file (found by tests/fuzz/malformed_seeds.sh)
    }
    if (c.special == FillSpecial::mixed) fail("attribute /fill_special is mixed, not the kind the case carries");
  }

  void read_results(hid_t root, CaseFile &result) const {
    Hdf5Handle results = open_group(root, "results", false);
    if (!results.valid()) return;
    hsize_t count = 0;
    H5Gget_num_objs(results.get(), &count);
    if (count > 1024) fail(fmt::format("/results holds {} entries, more than 1024", count));
    for (hsize_t i = 0; i < count; ++i) {
      char name[256] = {};
      if (H5Lget_name_by_idx(results.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT) < 0)
        fail("/results cannot be listed");
      Hdf5Handle group = open_group(results.get(), name);
      const Problem &problem = result.conv_case.problem;
      for (const DirectionInfo &d : directions(problem.op)) {
        if (H5Lexists(group.get(), d.name, H5P_DEFAULT) <= 0) continue;
        result.results[name][d.direction] = dataset(group.get(), fmt::format("/results/{}/", name), d.name,
                                                     result_dtype(problem, d.direction), nullptr);
        const std::string attribute = "algorithm_" + std::string(d.name);
        if (H5Aexists(group.get(), attribute.c_str()) > 0)
          result.algorithms[name][d.direction] =
              string_attribute(group.get(), fmt::format("/results/{}/", name), attribute.c_str());
      }
    }
  }

  void read_finding(hid_t root, CaseFile &result) const {
    Hdf5Handle finding = open_group(root, "finding", false);
    if (!finding.valid()) return;
    auto optional = [&](const char *name) {
      return H5Aexists(finding.get(), name) > 0 ? string_attribute(finding.get(), "/finding/", name) : std::string();
    };
    const std::string what = fmt::format("case file {}: attribute /finding/", path_);
    FailureKind kind = FailureKind::mismatch;
    try {
      kind = parse_failure_kind(optional("kind"));
    } catch (const InputError &error) {
      throw InputError(what + "kind: " + error.what());
    }
    result.finding = FindingRecord{optional("strategy"),
                                   parse_direction(optional("direction"), what + "direction"),
                                   optional("problem"),
                                   optional("implementation"),
                                   kind,
                                   optional("upstream"),
                                   parse_neighbour_rows(optional("neighbours"), what + "neighbours")};
    const std::string lifted = optional("held_back_lifted");
    if (!lifted.empty() && lifted != "true" && lifted != "false")
      throw InputError(what + "held_back_lifted: '" + lifted + "' is neither true nor false");
    result.finding->held_back_lifted = lifted == "true";
    result.finding->declaration = optional("declaration");
  }

  std::string path_;
  int64_t max_elements_;
};

// --- writing ---------------------------------------------------------------------------------------------

class Writer {
public:
  explicit Writer(const std::string &path) : path_(path) {}

  void check(herr_t status, const std::string &what) const {
    if (status < 0) throw InputError(fmt::format("cannot write case file {}: {} failed", path_, what));
  }
  Hdf5Handle checked(Hdf5Handle handle, const std::string &what) const {
    check(handle.valid() ? 0 : -1, what);
    return handle;
  }

  void int_attribute(hid_t object, const char *name, int64_t value) const {
    Hdf5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Hdf5Handle attribute =
        checked(Hdf5Handle(H5Acreate2(object, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose),
                name);
    check(H5Awrite(attribute.get(), H5T_NATIVE_INT64, &value), name);
  }

  void string_attribute(hid_t object, const char *name, const std::string &value) const {
    Hdf5Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    Hdf5Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Hdf5Handle attribute =
        checked(Hdf5Handle(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose),
                name);
    const char *text = value.c_str();
    check(H5Awrite(attribute.get(), type.get(), &text), name);
  }

  Hdf5Handle group(hid_t parent, const char *name) const {
    return checked(Hdf5Handle(H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose), name);
  }

  void dataset(hid_t parent, const char *name, const Tensor &tensor) const {
    std::vector<hsize_t> dims(tensor.shape().begin(), tensor.shape().end());
    Hdf5Handle space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
    Hdf5Handle type = checked(file_type(tensor.dtype()), name);
    Hdf5Handle dataset = checked(
        Hdf5Handle(H5Dcreate2(parent, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose),
        name);
    if (tensor.size() == 0) return;
    const Tensor values = tensor.cast(DType::float64);
    check(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data<double>()), name);
  }

  void int_array_attribute(hid_t object, const char *name, const std::vector<int64_t> &values) const {
    const hsize_t count = values.size();
    Hdf5Handle space(H5Screate_simple(1, &count, nullptr), H5Sclose);
    Hdf5Handle attribute =
        checked(Hdf5Handle(H5Acreate2(object, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose),
                name);
    check(H5Awrite(attribute.get(), H5T_NATIVE_INT64, values.data()), name);
  }

  void write_v1_fields(hid_t config, const Problem &problem) const {
    for (const IntField &field : int_fields()) {
      if (field.added_later) continue; // neutral in every problem v1 holds (fits_v1)
      if (!field.per_axis()) int_attribute(config, field.name, field.get(problem));
      else
        for (int64_t a = problem.first_axis(); a < max_ndims; ++a)
          int_attribute(config, field.axis_names[static_cast<size_t>(a)], field.get(problem, a));
    }
    string_attribute(config, "data_layout", to_string(problem.data_layout, 2));
    string_attribute(config, "weight_layout", to_string(problem.weight_layout, 2));
    string_attribute(config, "dtype", to_string(*problem.precision.single()));
  }

  void write_v2_fields(hid_t config, const Problem &problem) const {
    int_attribute(config, "ndims", problem.ndims);
    for (const IntField &field : int_fields()) {
      if (!field.per_axis()) {
        int_attribute(config, field.name, field.get(problem));
        continue;
      }
      std::vector<int64_t> values;
      for (int64_t a = problem.first_axis(); a < max_ndims; ++a) values.push_back(field.get(problem, a));
      int_array_attribute(config, field.name, values);
    }
    for (const WordField &field : word_fields()) string_attribute(config, field.name, field.get(problem));
  }

  void write(const std::string &target, const CaseFile &case_file) const {
    const Case &c = case_file.conv_case;
    Hdf5Handle file = checked(Hdf5Handle(H5Fcreate(target.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                                         H5Fclose),
                              "create");
    const hid_t root = file.get();
    const int64_t version = fits_v1(c.problem) ? 1 : 2;
    string_attribute(root, "format", format_name);
    int_attribute(root, "format_version", version);
    int_attribute(root, "seed", static_cast<int64_t>(c.seed));
    int_attribute(root, "case_index", static_cast<int64_t>(c.case_index));
    string_attribute(root, "fill", to_string(c.fill));
    if (c.special != FillSpecial::none) string_attribute(root, "fill_special", to_string(c.special));
    for (const auto &[setting, value] : settings_of(c))
      if (!value.empty()) string_attribute(root, setting.c_str(), value);
    string_attribute(root, "convcheck_version", CONVCHECK_VERSION);
    Hdf5Handle config = group(root, "config");
    if (version == 1) write_v1_fields(config.get(), c.problem);
    else write_v2_fields(config.get(), c.problem);
    Hdf5Handle inputs = group(root, "inputs");
    for (Role role : input_roles) dataset(inputs.get(), to_string(role).c_str(), c[role]);
    if (!case_file.results.empty()) {
      Hdf5Handle results = group(root, "results");
      for (const auto &[name, by_direction] : case_file.results) {
        Hdf5Handle strategy = group(results.get(), name.c_str());
        for (const auto &[direction, tensor] : by_direction) dataset(strategy.get(), to_string(direction).c_str(), tensor);
        if (auto found = case_file.algorithms.find(name); found != case_file.algorithms.end())
          for (const auto &[direction, algorithm] : found->second)
            string_attribute(strategy.get(), ("algorithm_" + to_string(direction)).c_str(), algorithm);
      }
    }
    if (case_file.finding) {
      Hdf5Handle finding = group(root, "finding");
      string_attribute(finding.get(), "strategy", case_file.finding->strategy);
      string_attribute(finding.get(), "direction", to_string(case_file.finding->direction));
      string_attribute(finding.get(), "problem", case_file.finding->problem);
      string_attribute(finding.get(), "implementation", case_file.finding->implementation);
      string_attribute(finding.get(), "kind", to_string(case_file.finding->kind));
      if (!case_file.finding->upstream.empty())
        string_attribute(finding.get(), "upstream", case_file.finding->upstream);
      if (!case_file.finding->neighbours.empty())
        string_attribute(finding.get(), "neighbours", format_neighbour_rows(case_file.finding->neighbours));
      if (case_file.finding->held_back_lifted) string_attribute(finding.get(), "held_back_lifted", "true");
      if (!case_file.finding->declaration.empty())
        string_attribute(finding.get(), "declaration", case_file.finding->declaration);
    }
  }

private:
  std::string path_;
};

} // namespace

CaseFile read_case_file(const std::string &path, int64_t max_elements) {
  std::lock_guard lock(hdf5_mutex());
  silence_hdf5();
  CaseFile read = Reader(path, max_elements).read();
  read.path = path;
  return read;
}

std::map<Direction, Tensor> read_result_file(const std::string &path, const Problem &problem, int64_t max_elements) {
  std::lock_guard lock(hdf5_mutex());
  silence_hdf5();
  return Reader(path, max_elements).read_results_at_root(problem);
}

std::string read_result_algorithm(const std::string &path) {
  std::lock_guard lock(hdf5_mutex());
  silence_hdf5();
  return Reader(path, 0).algorithm_at_root();
}

void write_case_file(const std::string &path, const CaseFile &case_file) {
  static std::atomic<uint64_t> counter{0};
  const std::filesystem::path target(path);
  const std::filesystem::path temporary =
      target.parent_path() / fmt::format(".{}.tmp-{}-{}", target.filename().string(), getpid(), counter++);
  std::lock_guard lock(hdf5_mutex());
  silence_hdf5();
  try {
    Writer(path).write(temporary.string(), case_file);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw;
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    throw InputError(fmt::format("cannot write case file {}: rename failed", path));
  }
}

CaseFile read_untrusted_case_file(const std::string &path, int64_t max_elements, double timeout_s) {
  const ForkedEnd trial = run_forked({[&] {
                                       const int null = open("/dev/null", O_WRONLY);
                                       if (null >= 0) dup2(null, STDERR_FILENO); // a sanitizer's report, say
                                       read_case_file(path, max_elements);
                                       return std::string();
                                     }},
                                     1, timeout_s)[0];
  if (trial.termination.kind == Termination::Kind::timed_out)
    throw InputError(fmt::format("case file {}: the HDF5 library did not finish reading it in {} s", path, timeout_s));
  if (trial.termination.kind == Termination::Kind::threw) throw InputError(trial.termination.message);
  if (!trial.returned())
    throw InputError(
        fmt::format("case file {}: the HDF5 library crashed reading it ({})", path, trial.termination.describe()));
  return read_case_file(path, max_elements);
}

} // namespace convcheck
