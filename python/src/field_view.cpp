#include "field_view.hpp"

#include <dlpack/dlpack.h>

#include <memory>

namespace py = pybind11;

namespace physarum::python {

namespace {

// The managed tensor with the arrays it points into and the owner it keeps alive.
struct Holder {
  DLManagedTensor managed{};
  int64_t shape[kMaxFieldDims] = {0, 0, 0, 0};
  int64_t strides[kMaxFieldDims] = {0, 0, 0, 0};
  PyObject* owner = nullptr;
};

void release(DLManagedTensor* t) {
  auto* h = static_cast<Holder*>(t->manager_ctx);
  // Consumers may release from any thread and without the GIL (DLPack allows both); the owner's
  // reference is dropped under the GIL, and not at all once the interpreter is gone.
  if (Py_IsInitialized() != 0) {
    const PyGILState_STATE gil = PyGILState_Ensure();
    Py_XDECREF(h->owner);
    PyGILState_Release(gil);
  }
  delete h;
}

// A capsule that no consumer took still owns its tensor (the DLPack protocol's rule: a consumer
// renames it "used_dltensor" and takes over the deleter).
void capsule_destructor(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor") == 0) return;
  auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (t != nullptr && t->deleter != nullptr) t->deleter(t);
}

}  // namespace

namespace {

FieldLayout volume_layout(Size size, int species) {
  FieldLayout l;
  const int64_t sides[3] = {size.depth, size.height, size.width};
  l.ndim = species == 1 ? 3 : 4;
  int64_t stride = 1;
  for (int i = l.ndim - 1; i >= 0; --i) {
    l.shape[i] = species == 1 ? sides[i] : (i == 0 ? species : sides[i - 1]);
    l.strides[i] = stride;
    stride *= l.shape[i];
  }
  return l;
}

}  // namespace

FieldLayout field_layout(Size size, int species, int cell_stride) {
  if (size.volume()) return volume_layout(size, species);
  FieldLayout l;
  const int64_t row = static_cast<int64_t>(size.width) * cell_stride;
  if (species == 1) {
    l.ndim = 2;
    l.shape[0] = size.height;
    l.shape[1] = size.width;
    l.strides[0] = row;
    l.strides[1] = cell_stride;
  } else {
    l.ndim = 3;
    l.shape[0] = species;
    l.shape[1] = size.height;
    l.shape[2] = size.width;
    l.strides[0] = 1;
    l.strides[1] = row;
    l.strides[2] = cell_stride;
  }
  return l;
}

py::capsule make_dlpack_capsule(const FieldStorage& storage, const FieldLayout& layout, py::handle owner) {
  auto h = std::make_unique<Holder>();
  for (int i = 0; i < layout.ndim; ++i) {
    h->shape[i] = layout.shape[i];
    h->strides[i] = layout.strides[i];
  }
  DLTensor& t = h->managed.dl_tensor;
  t.data = storage.data;
  t.device = {storage.on_cuda_device ? kDLCUDA : kDLCPU, storage.on_cuda_device ? storage.device : 0};
  t.ndim = layout.ndim;
  t.dtype = {static_cast<uint8_t>(kDLFloat), 32, 1};
  t.shape = h->shape;
  t.strides = h->strides;
  t.byte_offset = 0;
  h->owner = owner.ptr();
  Py_XINCREF(h->owner);
  h->managed.manager_ctx = h.get();
  h->managed.deleter = release;
  PyObject* capsule = PyCapsule_New(&h->managed, "dltensor", capsule_destructor);
  if (capsule == nullptr) {
    release(&h.release()->managed);
    throw py::error_already_set();
  }
  h.release();
  return py::reinterpret_steal<py::capsule>(capsule);
}

py::tuple dlpack_device(const FieldStorage& storage) {
  if (storage.on_cuda_device) return py::make_tuple(static_cast<int>(kDLCUDA), storage.device);
  return py::make_tuple(static_cast<int>(kDLCPU), 0);
}

}  // namespace physarum::python
