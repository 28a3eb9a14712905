// CUDA error checks and RAII owners of device resources (internal to sim/cuda).
//
// PHYS_CUDA_CHECK throws physarum::Error naming the file, line and failing call; PHYS_CUDA_LOG
// only prints, for destructors, which must never throw. Every owner is move-only and releases
// its resource exactly once.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "sim/params.hpp"

namespace physarum::cuda {

[[noreturn]] void throw_cuda_error(cudaError_t e, const char* call, const char* file, int line);
void log_cuda_error(cudaError_t e, const char* call, const char* file, int line) noexcept;

#define PHYS_CUDA_CHECK(call)                                                                               \
  do {                                                                                                      \
    const cudaError_t phys_err_ = (call);                                                                   \
    if (phys_err_ != cudaSuccess) ::physarum::cuda::throw_cuda_error(phys_err_, #call, __FILE__, __LINE__); \
  } while (0)

#define PHYS_CUDA_LOG(call)                                                                               \
  do {                                                                                                    \
    const cudaError_t phys_err_ = (call);                                                                 \
    if (phys_err_ != cudaSuccess) ::physarum::cuda::log_cuda_error(phys_err_, #call, __FILE__, __LINE__); \
  } while (0)

// Checks the launch that was just enqueued (bad configuration, missing kernel image).
#define PHYS_CUDA_CHECK_LAUNCH() PHYS_CUDA_CHECK(cudaGetLastError())

// Device memory for `count` elements of T. Allocation failure (out of memory included) throws
// Error (OutOfMemoryError when out of memory) with the size asked for; the error state is cleared so the
// context stays usable.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count, const char* what) : count_(count) {
    if (count == 0) return;
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, count * sizeof(T));
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      count_ = 0;
      if (e == cudaErrorMemoryAllocation) {
        throw OutOfMemoryError(std::string("out of GPU memory allocating ") + what + " (" +
                               std::to_string((count * sizeof(T)) >> 20) + " MiB)");
      }
      throw_cuda_error(e, "cudaMalloc", __FILE__, __LINE__);
    }
    ptr_ = static_cast<T*>(p);
  }
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  void reset() noexcept {
    if (ptr_ != nullptr) PHYS_CUDA_LOG(cudaFree(ptr_));
    ptr_ = nullptr;
    count_ = 0;
  }
  T* get() const { return ptr_; }
  size_t size() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

class Stream {
 public:
  Stream() = default;
  static Stream create() {
    Stream s;
    PHYS_CUDA_CHECK(cudaStreamCreateWithFlags(&s.s_, cudaStreamNonBlocking));
    return s;
  }
  ~Stream() {
    if (s_ != nullptr) PHYS_CUDA_LOG(cudaStreamDestroy(s_));
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept {
    if (this != &o) {
      if (s_ != nullptr) PHYS_CUDA_LOG(cudaStreamDestroy(s_));
      s_ = std::exchange(o.s_, nullptr);
    }
    return *this;
  }
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  Event() = default;
  static Event create() {
    Event e;
    PHYS_CUDA_CHECK(cudaEventCreate(&e.e_));
    return e;
  }
  ~Event() {
    if (e_ != nullptr) PHYS_CUDA_LOG(cudaEventDestroy(e_));
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  Event& operator=(Event&& o) noexcept {
    if (this != &o) {
      if (e_ != nullptr) PHYS_CUDA_LOG(cudaEventDestroy(e_));
      e_ = std::exchange(o.e_, nullptr);
    }
    return *this;
  }
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

// An instantiated graph (the captured graph itself is dropped once instantiated).
class GraphExec {
 public:
  GraphExec() = default;
  ~GraphExec() { reset(); }
  GraphExec(const GraphExec&) = delete;
  GraphExec& operator=(const GraphExec&) = delete;
  GraphExec(GraphExec&& o) noexcept : g_(std::exchange(o.g_, nullptr)) {}
  GraphExec& operator=(GraphExec&& o) noexcept {
    if (this != &o) {
      reset();
      g_ = std::exchange(o.g_, nullptr);
    }
    return *this;
  }
  void reset() noexcept {
    if (g_ != nullptr) PHYS_CUDA_LOG(cudaGraphExecDestroy(g_));
    g_ = nullptr;
  }
  // Captures what `enqueue(stream)` issues on `stream` and instantiates it.
  template <class Fn>
  static GraphExec capture(cudaStream_t stream, Fn&& enqueue) {
    PHYS_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    try {
      enqueue(stream);
    } catch (...) {
      cudaGraph_t broken = nullptr;
      if (cudaStreamEndCapture(stream, &broken) == cudaSuccess && broken != nullptr) {
        PHYS_CUDA_LOG(cudaGraphDestroy(broken));
      }
      (void)cudaGetLastError();
      throw;
    }
    cudaGraph_t graph = nullptr;
    PHYS_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    GraphExec g;
    const cudaError_t e = cudaGraphInstantiate(&g.g_, graph, 0);
    PHYS_CUDA_LOG(cudaGraphDestroy(graph));
    if (e != cudaSuccess) throw_cuda_error(e, "cudaGraphInstantiate", __FILE__, __LINE__);
    return g;
  }
  cudaGraphExec_t get() const { return g_; }
  explicit operator bool() const { return g_ != nullptr; }

 private:
  cudaGraphExec_t g_ = nullptr;
};

// A tuning knob from the environment (benchmarking), clamped to [lo, hi] (strtoll saturates;
// atoi's overflow is UB); `fallback` when unset or empty.
inline int env_int(const char* name, int fallback, int lo, int hi) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  const long long n = std::strtoll(v, nullptr, 10);
  return static_cast<int>(std::clamp<long long>(n, lo, hi));
}

}  // namespace physarum::cuda
