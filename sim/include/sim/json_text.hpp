// Pieces of the JSON files the program writes, strict JSON (RFC 8259) that every parser reads:
// strings escaped and valid UTF-8, and no NaN or infinity, which JSON does not have. Every JSON
// writer builds its text from these two, so the rules below hold for all of them.
#pragma once

#include <string>
#include <string_view>

namespace physarum {

// `s` in double quotes, with '"', '\\' and control characters escaped. A byte that is not part of
// well-formed UTF-8 (a path or a value from a file in another encoding) becomes U+FFFD, the
// replacement character: JSON text must be UTF-8, and a reader would refuse the whole file.
std::string json_string(std::string_view s);

// For json_number: the fewest digits that read back as the same double (0.15, not 0.14999999999999999).
inline constexpr int kJsonShortest = 0;

// `v` with `significant` digits (printf %.*g; kJsonShortest: the shortest exact text), or null when it
// is not finite: a quantity that does not exist (a rate over no time, a ratio of nothing) is written
// as absent, never refused, so the rest of the file is kept.
std::string json_number(double v, int significant = 17);

}  // namespace physarum
