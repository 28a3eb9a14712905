#include "export/mesh_files.hpp"

#include <tiny_gltf.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <limits>
#include <sstream>

#include "sim/params.hpp"

namespace physarum::app::exporter {
namespace {

template <class T>
void append_le(std::string& out, T v) {
  static_assert(std::endian::native == std::endian::little, "the mesh writers assume a little-endian host");
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.append(b, sizeof(T));
}

void append_number(std::string& out, float v) {
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, v);
  out.append(b, r.ptr);
}

void append_index(std::string& out, uint64_t v) {
  char b[24];
  const auto r = std::to_chars(b, b + sizeof b, v);
  out.append(b, r.ptr);
}

// The bytes of a vector, for the glTF buffer.
template <class T>
void append_bytes(std::vector<unsigned char>& out, const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  out.insert(out.end(), p, p + v.size() * sizeof(T));
}

int add_view(tinygltf::Model& model, size_t offset, size_t length, int target) {
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = offset;
  view.byteLength = length;
  view.target = target;
  model.bufferViews.push_back(view);
  return static_cast<int>(model.bufferViews.size() - 1);
}

int add_accessor(tinygltf::Model& model, int view, int component, size_t count, int type) {
  tinygltf::Accessor a;
  a.bufferView = view;
  a.componentType = component;
  a.count = count;
  a.type = type;
  model.accessors.push_back(a);
  return static_cast<int>(model.accessors.size() - 1);
}

// glTF requires a POSITION accessor's bounds.
void set_bounds(tinygltf::Accessor& a, const std::vector<float>& positions) {
  std::array<double, 3> lo{0, 0, 0}, hi{0, 0, 0};
  for (size_t c = 0; c < 3 && !positions.empty(); ++c) {
    lo[c] = hi[c] = positions[c];
    for (size_t v = c; v < positions.size(); v += 3) {
      lo[c] = std::min(lo[c], static_cast<double>(positions[v]));
      hi[c] = std::max(hi[c], static_cast<double>(positions[v]));
    }
  }
  a.minValues.assign(lo.begin(), lo.end());
  a.maxValues.assign(hi.begin(), hi.end());
}

}  // namespace

std::string ply_bytes(const Mesh& m, const std::string& recipe) {
  std::string out = "ply\nformat binary_little_endian 1.0\ncomment " + recipe + "\nelement vertex " +
                    std::to_string(m.vertex_count()) +
                    "\nproperty float x\nproperty float y\nproperty float z\n"
                    "property float nx\nproperty float ny\nproperty float nz\nelement face " +
                    std::to_string(m.triangle_count()) +
                    "\nproperty list uchar uint vertex_indices\nend_header\n";
  out.reserve(out.size() + m.vertex_count() * 24 + m.triangle_count() * 13);
  for (size_t v = 0; v < m.vertex_count(); ++v) {
    for (size_t c = 0; c < 3; ++c) append_le(out, m.positions[3 * v + c]);
    for (size_t c = 0; c < 3; ++c) append_le(out, m.normals[3 * v + c]);
  }
  for (size_t t = 0; t < m.triangle_count(); ++t) {
    out.push_back(3);
    for (size_t c = 0; c < 3; ++c) append_le(out, m.indices[3 * t + c]);
  }
  return out;
}

std::string obj_bytes(const Mesh& m, const std::string& recipe) {
  std::string out = "# " + recipe + "\n";
  for (size_t v = 0; v < m.vertex_count(); ++v) {
    for (const auto* kind : {"v", "vn"}) {
      const std::vector<float>& src = kind[1] ? m.normals : m.positions;
      out += kind;
      for (size_t c = 0; c < 3; ++c) {
        out.push_back(' ');
        append_number(out, src[3 * v + c]);
      }
      out.push_back('\n');
    }
  }
  for (size_t t = 0; t < m.triangle_count(); ++t) {
    out.push_back('f');
    for (size_t c = 0; c < 3; ++c) {
      const uint64_t i = uint64_t{m.indices[3 * t + c]} + 1;  // OBJ counts from 1
      out.push_back(' ');
      append_index(out, i);
      out += "//";
      append_index(out, i);
    }
    out.push_back('\n');
  }
  return out;
}

std::string glb_bytes(const Mesh& m, const std::string& generator, const std::string& recipe) {
  tinygltf::Model model;
  model.asset.version = "2.0";
  model.asset.generator = generator;
  tinygltf::Value::Object extras;
  extras["recipe"] = tinygltf::Value(recipe);
  model.asset.extras = tinygltf::Value(extras);
  tinygltf::Buffer buffer;
  append_bytes(buffer.data, m.positions);
  append_bytes(buffer.data, m.normals);
  append_bytes(buffer.data, m.indices);
  model.buffers.push_back(std::move(buffer));
  const size_t pos_bytes = m.positions.size() * 4, idx_bytes = m.indices.size() * 4;
  const int pos = add_accessor(model, add_view(model, 0, pos_bytes, TINYGLTF_TARGET_ARRAY_BUFFER),
                               TINYGLTF_COMPONENT_TYPE_FLOAT, m.vertex_count(), TINYGLTF_TYPE_VEC3);
  set_bounds(model.accessors[static_cast<size_t>(pos)], m.positions);
  const int nrm = add_accessor(model, add_view(model, pos_bytes, pos_bytes, TINYGLTF_TARGET_ARRAY_BUFFER),
                               TINYGLTF_COMPONENT_TYPE_FLOAT, m.vertex_count(), TINYGLTF_TYPE_VEC3);
  const int idx =
      add_accessor(model, add_view(model, 2 * pos_bytes, idx_bytes, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER),
                   TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, m.indices.size(), TINYGLTF_TYPE_SCALAR);
  tinygltf::Primitive prim;
  prim.attributes["POSITION"] = pos;
  prim.attributes["NORMAL"] = nrm;
  prim.indices = idx;
  prim.mode = TINYGLTF_MODE_TRIANGLES;
  tinygltf::Mesh mesh;
  mesh.name = "iso-surface";
  mesh.primitives.push_back(prim);
  model.meshes.push_back(mesh);
  tinygltf::Node node;
  node.mesh = 0;
  model.nodes.push_back(node);
  tinygltf::Scene scene;
  scene.nodes.push_back(0);
  model.scenes.push_back(scene);
  model.defaultScene = 0;
  std::ostringstream os;
  tinygltf::TinyGLTF writer;
  if (!writer.WriteGltfSceneToStream(&model, os, false, true))
    throw Error("tinygltf could not write the mesh");
  return std::move(os).str();
}

}  // namespace physarum::app::exporter
