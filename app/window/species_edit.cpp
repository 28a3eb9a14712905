#include "window/species_edit.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace physarum::app {
namespace {

struct NamedColour {
  const char* name;
  uint32_t rgb;
};
// Hues far apart that read well added on black (the default blend) and as inks on white.
constexpr std::array<NamedColour, 8> kRing{{{"orange", 0xff7a1aU},
                                            {"blue", 0x1ab8ffU},
                                            {"green", 0x5cff4aU},
                                            {"magenta", 0xff3ad8U},
                                            {"yellow", 0xffd21aU},
                                            {"violet", 0x9a5cffU},
                                            {"red", 0xff3030U},
                                            {"cyan", 0x2affe0U}}};

int colour_distance2(uint32_t a, uint32_t b) {
  int d = 0;
  for (int shift : {16, 8, 0}) {
    const int x = static_cast<int>((a >> shift) & 0xffU) - static_cast<int>((b >> shift) & 0xffU);
    d += x * x;
  }
  return d;
}

// The ring entry farthest from every taken colour (the first one on ties, so the choice is fixed).
const NamedColour& pick(const SpeciesSet& taken) {
  const NamedColour* best = &kRing[0];
  int best_d = -1;
  for (const NamedColour& c : kRing) {
    int d = 3 * 255 * 255 + 1;
    for (const Species& s : taken.list) d = std::min(d, colour_distance2(c.rgb, s.colour));
    if (d > best_d) {
      best_d = d;
      best = &c;
    }
  }
  return *best;
}

bool name_taken(const SpeciesSet& s, const std::string& name) {
  return std::any_of(s.list.begin(), s.list.end(), [&](const Species& sp) { return sp.name == name; });
}

std::string unused_name(const SpeciesSet& taken, const std::string& base) {
  std::string name = base;
  for (int k = 2; name_taken(taken, name); ++k) name = base + " " + std::to_string(k);
  return name;
}

// The species a one-species preset resolves to (sim's resolve_species): white, named "species".
bool is_resolved_default(const Species& s) {
  const Species d;
  return s.name == d.name && s.colour == d.colour;
}

}  // namespace

SpeciesPlan unchanged_plan(const SpeciesSet& live) {
  SpeciesPlan p;
  for (size_t i = 0; i < live.list.size(); ++i)
    p.entries.push_back({static_cast<int>(i), live.list[i], false});
  return p;
}

bool plan_fits(const SpeciesPlan& plan, const SpeciesSet& live) {
  return !plan.entries.empty() && std::all_of(plan.entries.begin(), plan.entries.end(), [&](const auto& e) {
    return e.origin < static_cast<int>(live.list.size());
  });
}

bool plan_changes(const SpeciesPlan& plan, const SpeciesSet& live) {
  if (plan.entries.size() != live.list.size()) return true;
  for (size_t i = 0; i < plan.entries.size(); ++i) {
    if (plan.entries[i].origin != static_cast<int>(i) || plan.entries[i].recolour) return true;
  }
  return false;
}

bool plan_add(SpeciesPlan& plan, const SpeciesSet& live, int like) {
  if (static_cast<int>(plan.entries.size()) >= kMaxSpecies || plan.entries.empty()) return false;
  like = std::clamp(like, 0, static_cast<int>(plan.entries.size()) - 1);
  SpeciesSet now = merged_species(plan, live);
  // A one-species preset's species is white and unnamed: as one of several it gets a colour too.
  if (now.list.size() == 1 && is_resolved_default(now.list[0])) {
    PlannedSpecies& only = plan.entries[0];
    const NamedColour& c = kRing[0];
    only.fresh.colour = c.rgb;
    only.fresh.name = c.name;
    only.recolour = true;
    now = merged_species(plan, live);
  }
  PlannedSpecies added;
  added.fresh = now.list[static_cast<size_t>(like)];  // its model, spawn mode and share
  const NamedColour& c = pick(now);
  added.fresh.colour = c.rgb;
  added.fresh.name = unused_name(now, c.name);
  plan.entries.push_back(added);
  return true;
}

bool plan_remove(SpeciesPlan& plan, int index) {
  if (plan.entries.size() <= 1 || index < 0 || index >= static_cast<int>(plan.entries.size())) return false;
  plan.entries.erase(plan.entries.begin() + index);
  return true;
}

SpeciesSet merged_species(const SpeciesPlan& plan, const SpeciesSet& live) {
  SpeciesSet out;
  const size_t n = plan.entries.size(), live_n = live.list.size();
  for (const PlannedSpecies& e : plan.entries) {
    if (e.origin < 0) {
      out.list.push_back(e.fresh);
      continue;
    }
    Species s = live.list.at(static_cast<size_t>(e.origin));
    if (e.recolour) {
      s.colour = e.fresh.colour;
      s.name = e.fresh.name;
    }
    out.list.push_back(s);
  }
  out.interaction.assign(n * n, kNewInteraction);
  for (size_t r = 0; r < n; ++r) {
    for (size_t c = 0; c < n; ++c) {
      const int a = plan.entries[r].origin, b = plan.entries[c].origin;
      float& w = out.interaction[r * n + c];
      if (a >= 0 && b >= 0 && live.interaction.size() == live_n * live_n) {
        w = live.interaction[static_cast<size_t>(a) * live_n + static_cast<size_t>(b)];
      } else if (r == c) {
        w = 1.0f;
      }
    }
  }
  return out;
}

}  // namespace physarum::app
