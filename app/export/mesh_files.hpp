// A mesh (export/volume_mesh.hpp) as the files modelling tools and printers open: binary PLY,
// Wavefront OBJ and binary glTF (.glb). Each is built whole in memory from the mesh alone, so equal
// meshes give equal bytes; `recipe` (one line) goes into a comment or the glTF asset's extras.
#pragma once

#include <string>

#include "export/volume_mesh.hpp"

namespace physarum::app::exporter {

// Little-endian float positions and normals, faces as a uchar count and three uint indices.
std::string ply_bytes(const Mesh& m, const std::string& recipe);
// "v", "vn" and "f a//a b//b c//c" lines; numbers in their shortest exact decimal form.
std::string obj_bytes(const Mesh& m, const std::string& recipe);
// One mesh, one node, one scene: POSITION (with its bounds), NORMAL and uint32 indices in one
// buffer, written by tinygltf. `generator` names the program in the asset.
std::string glb_bytes(const Mesh& m, const std::string& generator, const std::string& recipe);

}  // namespace physarum::app::exporter
