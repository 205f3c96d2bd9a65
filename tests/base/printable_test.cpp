// What the program prints of a user's text: one line, nothing a terminal acts on, readable
// UTF-8 kept, long text cut in the middle with its length named.
#include <string>

#include <gtest/gtest.h>

#include "isoterra/base.hpp"

namespace isoterra {
namespace {

TEST(Printable, escapes_what_a_terminal_acts_on_and_keeps_readable_utf8) {
    EXPECT_EQ(printable("/tmp/terrain.toml"), "/tmp/terrain.toml");
    EXPECT_EQ(printable("a\nb\rc\td"), "a\\nb\\rc\\td");
    EXPECT_EQ(printable("x\x1b[31mred\x7f"), "x\\x1b[31mred\\x7f");
    // clang-format off
    EXPECT_EQ(printable("donn\xc3\xa9" "es/\xe5\x9c\xb0\xe5\xbd\xa2.toml"), "donn\xc3\xa9" "es/\xe5\x9c\xb0\xe5\xbd\xa2.toml");
    // C1 controls (U+009B is a one-character CSI), line separators, bidi overrides, a BOM.
    EXPECT_EQ(printable("a\xc2\x9b" "2J"), "a\\u{9b}2J");
    EXPECT_EQ(printable("a\xe2\x80\xa8" "b"), "a\\u{2028}b");
    EXPECT_EQ(printable("evil\xe2\x80\xae" "fdp.exe"), "evil\\u{202e}fdp.exe");
    EXPECT_EQ(printable("\xef\xbb\xbfname"), "\\u{feff}name");
    // Not UTF-8: a lone continuation byte, a cut sequence, an overlong '/', a surrogate.
    EXPECT_EQ(printable("a\x80" "b"), "a\\x80b");
    // clang-format on
    EXPECT_EQ(printable("a\xe5\x9c"), "a\\xe5\\x9c");
    EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");
    EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");
    EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
}

TEST(Printable, cuts_long_text_in_the_middle_and_keeps_its_end) {
    const std::string path = "/tmp/" + std::string(5000, 'a') + "/x.glb: No such file or directory";
    const std::string shown = printable(path, 300);
    EXPECT_LE(shown.size(), 330u);
    EXPECT_EQ(shown.rfind("/tmp/aaa", 0), 0u);
    EXPECT_NE(shown.find("...(" + std::to_string(path.size()) + " bytes)..."), std::string::npos);
    EXPECT_NE(shown.find("/x.glb: No such file or directory"), std::string::npos);
    // A cut never splits a character or an escape.
    std::string wide;
    for (int i = 0; i < 400; ++i) wide += "\xe5\x9c\xb0\x1b";
    const std::string cut = printable(wide, 100);
    EXPECT_LE(cut.size(), 120u);
    EXPECT_EQ(printable(cut, 100000), cut) << "the cut text is itself printable";
    EXPECT_EQ(cut.find('\x1b'), std::string::npos);
    EXPECT_EQ(printable(std::string(100, 'b'), 100), std::string(100, 'b'));
}

}  // namespace
}  // namespace isoterra
