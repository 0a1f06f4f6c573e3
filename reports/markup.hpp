#pragma once
// Text placed inside HTML, SVG or XML. Every string a report did not write itself (strategy names, problem lines
// carrying an external program's output, file paths) goes through here, so none of it can open a tag, end an
// attribute or smuggle in a script.

#include <string>

namespace convcheck {

/// `text` safe as element content and as a quoted attribute value: & < > " ' become entities, control
/// characters other than tab and newline become spaces, and bytes that are not valid UTF-8 become U+FFFD (a
/// tail cut from a program's output can end inside a character).
std::string markup_escape(const std::string &text);

} // namespace convcheck
