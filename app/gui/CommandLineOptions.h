#pragma once
// nestor [PROJECT.yaml] [--mapping NAME] [--screenshot OUT.png]
#include <QString>
#include <QStringList>

#include <optional>

namespace nestor::app {

struct CommandLineOptions {
    QString projectPath;
    QString mapping;         // empty = the project's default
    QString screenshotPath;  // non-empty: render after the evaluation, save, exit

    // Handles --help and --version itself (prints, exits). On a usage error returns
    // nullopt and sets *error.
    static std::optional<CommandLineOptions> parse(const QStringList& arguments, QString* error);
};

} // namespace nestor::app
