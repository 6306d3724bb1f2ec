#pragma once
// For tests that expect a NestorError at a place in their own input text.
#include "common/Error.h"

#include <QtTest/QtTest>

#include <string>

namespace nestor::test {

// `read()` (which reads `input`) throws a NestorError whose text holds "file:line:column:" and
// `message`; a QtTest failure otherwise (the caller returns after it, as after QVERIFY).
template <class Read>
void expectLocatedError(const std::string& input, Read&& read, const std::string& file, int line, int column,
                        const std::string& message)
{
    try {
        read();
    } catch (const NestorError& e) {
        const std::string what = e.what();
        const std::string at = file + ":" + std::to_string(line) + ":" + std::to_string(column) + ":";
        QVERIFY2(what.find(at) != std::string::npos, (what + " (expected at " + at + ")").c_str());
        QVERIFY2(what.find(message) != std::string::npos, (what + " (expected '" + message + "')").c_str());
        return;
    }
    QFAIL(("no error for: " + input).c_str());
}

} // namespace nestor::test
