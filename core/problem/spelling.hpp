#pragma once
// Case folding for the words of the problem's spellings (layouts, formats, descriptor words), which are read
// case-insensitively. ASCII only: every spelling is.

#include <cctype>
#include <string>

namespace convcheck {

/// `text` with ASCII letters lowered.
inline std::string lowercase(std::string text) {
  for (char &c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

/// Each of `items` spelled by `spell`, joined by `separator`; `none` when there are none ("1, 2, 3").
template <class Items, class Spell>
std::string joined(const Items &items, const char *separator, Spell spell, const char *none) {
  std::string text;
  for (const auto &item : items) text += (text.empty() ? "" : separator) + std::string(spell(item));
  return text.empty() ? none : text;
}

/// `text` with ASCII letters raised.
inline std::string uppercase(std::string text) {
  for (char &c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

} // namespace convcheck
