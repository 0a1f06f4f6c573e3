#pragma once
// A minimal RAII owner for HDF5 C API identifiers. We use the C API because the C++ one throws its own
// exception types and prints error stacks; here every failure becomes a negative id we turn into one line.

#include <hdf5.h>

namespace convcheck {

class Hdf5Handle {
public:
  using Closer = herr_t (*)(hid_t);
  Hdf5Handle(hid_t id, Closer close) : id_(id), close_(close) {}
  Hdf5Handle(Hdf5Handle &&other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = -1; }
  Hdf5Handle(const Hdf5Handle &) = delete;
  Hdf5Handle &operator=(const Hdf5Handle &) = delete;
  ~Hdf5Handle() {
    if (id_ >= 0) close_(id_);
  }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

private:
  hid_t id_;
  Closer close_;
};

} // namespace convcheck
