// The network graph as GraphML and as JSON. Numbers go through json_number (10 significant digits,
// so a coordinate to a hundredth of a cell on a 100000-cell side); a level that is not a number
// (a field holding NaN) is written as GraphML's NaN and JSON's null.
#include <string>

#include "analysis/network_graph.hpp"
#include "sim/json_text.hpp"

namespace physarum::app::analysis {
namespace {

std::string number(double v) {
  return json_number(v, 10);
}

std::string graphml_number(double v) {
  const std::string s = number(v);
  return s == "null" ? "NaN" : s;
}

// Text for an XML element: markup characters escaped. Anything outside printable ASCII becomes
// '?': the description is a command line that may hold a file name in any encoding, and one byte
// of malformed UTF-8 would make the whole file unreadable to an XML parser.
std::string xml_text(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c >= 0x20 && c < 0x7f)
      out += c;
    else
      out += '?';
  }
  return out;
}

// The widest a node's or an edge's text can be in either format: every number at its longest
// (json_number's 10 digits with sign, point and a three-digit exponent), ids of 20 digits.
constexpr uint64_t kNumber = 17, kId = 20;
constexpr uint64_t kNodeBytes = 160 + 2 * kId + 2 * kNumber;
constexpr uint64_t kEdgeBytes = 160 + 4 * kId + 2 * kNumber;

}  // namespace

std::string graph_graphml(const NetworkGraph& g, const std::string& description) {
  std::string s =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n";
  s += "  <desc>" + xml_text(description) + "</desc>\n";
  s += "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n";
  s += "  <key id=\"x\" for=\"node\" attr.name=\"x\" attr.type=\"double\"/>\n";
  s += "  <key id=\"y\" for=\"node\" attr.name=\"y\" attr.type=\"double\"/>\n";
  s += "  <key id=\"town\" for=\"node\" attr.name=\"town\" attr.type=\"int\"/>\n";
  s += "  <key id=\"length\" for=\"edge\" attr.name=\"length\" attr.type=\"double\"/>\n";
  s += "  <key id=\"level\" for=\"edge\" attr.name=\"level\" attr.type=\"double\"/>\n";
  s += "  <key id=\"cells\" for=\"edge\" attr.name=\"cells\" attr.type=\"long\"/>\n";
  s += "  <graph id=\"network\" edgedefault=\"undirected\">\n";
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const GraphNode& n = g.nodes[i];
    s += "    <node id=\"n" + std::to_string(i) + "\"><data key=\"kind\">" + node_kind_name(n.kind) +
         "</data><data key=\"x\">" + graphml_number(n.x) + "</data><data key=\"y\">" + graphml_number(n.y) +
         "</data>";
    if (n.town >= 0) s += "<data key=\"town\">" + std::to_string(n.town) + "</data>";
    s += "</node>\n";
  }
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const GraphEdge& e = g.edges[i];
    s += "    <edge id=\"e" + std::to_string(i) + "\" source=\"n" + std::to_string(e.a) + "\" target=\"n" +
         std::to_string(e.b) + "\"><data key=\"length\">" + graphml_number(e.length) +
         "</data><data key=\"level\">" + graphml_number(e.level) + "</data><data key=\"cells\">" +
         std::to_string(e.cells) + "</data></edge>\n";
  }
  s += "  </graph>\n</graphml>\n";
  return s;
}

std::string graph_json(const NetworkGraph& g, const std::string& description) {
  std::string s = "{\n  \"directed\": false,\n  \"multigraph\": true,\n";
  s += "  \"graph\": {\"made_by\": " + json_string(description) + ", \"towns\": " + std::to_string(g.towns) +
       "},\n";
  s += "  \"nodes\": [";
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const GraphNode& n = g.nodes[i];
    s += std::string(i ? ",\n" : "\n") + "    {\"id\": " + std::to_string(i) + ", \"kind\": \"" +
         node_kind_name(n.kind) + "\", \"x\": " + number(n.x) + ", \"y\": " + number(n.y) +
         (n.town >= 0 ? ", \"town\": " + std::to_string(n.town) : std::string()) + "}";
  }
  s += g.nodes.empty() ? "],\n" : "\n  ],\n";
  s += "  \"links\": [";
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const GraphEdge& e = g.edges[i];
    s += std::string(i ? ",\n" : "\n") + "    {\"source\": " + std::to_string(e.a) +
         ", \"target\": " + std::to_string(e.b) + ", \"key\": " + std::to_string(i) +
         ", \"length\": " + number(e.length) + ", \"level\": " + number(e.level) +
         ", \"cells\": " + std::to_string(e.cells) + "}";
  }
  s += g.edges.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return s;
}

uint64_t graph_file_bound(uint64_t nodes, uint64_t edges, uint64_t description_bytes) {
  // An escaped byte of the description takes at most 6 (JSON's \u00XX).
  return 4096 + 6 * description_bytes + nodes * kNodeBytes + edges * kEdgeBytes;
}

}  // namespace physarum::app::analysis
