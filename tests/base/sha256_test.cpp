// SHA-256 against the test vectors of FIPS 180-4's examples, whole and in pieces.
#include <string>

#include <gtest/gtest.h>

#include "isoterra/base.hpp"

namespace isoterra {
namespace {

TEST(Sha256, matches_the_fips_180_examples) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, gives_the_same_digest_for_a_message_fed_in_pieces_of_any_size) {
    std::string message;
    for (int i = 0; i < 1000; ++i) message += static_cast<char>(i * 7 + 3);
    const std::string whole = sha256_hex(message);
    for (std::size_t piece : {1u, 3u, 55u, 56u, 63u, 64u, 65u, 127u, 999u}) {
        Sha256 s;
        for (std::size_t i = 0; i < message.size(); i += piece) s.update(std::string_view(message).substr(i, piece));
        EXPECT_EQ(s.hex(), whole) << "pieces of " << piece;
    }
    // Lengths around the padding's boundary (55, 56 and 64 bytes) differ from each other.
    EXPECT_NE(sha256_hex(std::string(55, 'x')), sha256_hex(std::string(56, 'x')));
    EXPECT_EQ(sha256_hex(std::string(56, 'a')), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
}

TEST(Sha256, an_empty_piece_with_a_null_pointer_adds_nothing) {
    // An empty vector's data() may be null; the sanitizer tree fails on a null memcpy source.
    Sha256 s;
    s.update("ab");
    s.update(std::string_view());
    s.update("c");
    EXPECT_EQ(s.hex(), sha256_hex("abc"));
}

}  // namespace
}  // namespace isoterra
