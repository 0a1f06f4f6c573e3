#pragma once
// A byte encoding for what crosses a pipe between convcheck and a process it forked (outcomes of a case, a saved
// finding): plain values (numbers, enums, structs of them) byte for byte as the host holds them, and
// length-prefixed strings. Both ends are the same
// binary, so there is no versioning; a reader that runs past the end throws, which the caller treats as a
// worker that lied.

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace convcheck {

class WireWriter {
public:
  template <typename T>
    requires std::is_trivially_copyable_v<T>
  void put(T value) {
    bytes_.append(reinterpret_cast<const char *>(&value), sizeof value);
  }
  void put(const std::string &text) {
    put(static_cast<uint64_t>(text.size()));
    bytes_ += text;
  }
  const std::string &bytes() const { return bytes_; }

private:
  std::string bytes_;
};

class WireReader {
public:
  explicit WireReader(const std::string &bytes) : bytes_(bytes) {}

  template <typename T>
    requires std::is_trivially_copyable_v<T>
  T get() {
    T value;
    std::memcpy(&value, take(sizeof value), sizeof value);
    return value;
  }
  std::string get_string() {
    const auto size = get<uint64_t>();
    if (size > bytes_.size()) throw std::runtime_error("wire: string longer than the message");
    return std::string(take(size), size);
  }
  bool done() const { return offset_ == bytes_.size(); }

private:
  const char *take(size_t size) {
    if (size > bytes_.size() - offset_) throw std::runtime_error("wire: message ends early");
    const char *at = bytes_.data() + offset_;
    offset_ += size;
    return at;
  }

  const std::string &bytes_;
  size_t offset_ = 0;
};

} // namespace convcheck
