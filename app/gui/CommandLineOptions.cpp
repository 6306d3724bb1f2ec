#include "CommandLineOptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace nestor::app {

std::optional<CommandLineOptions> CommandLineOptions::parse(const QStringList& arguments, QString* error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("CommandLineOptions", "Nestor: a workbench for designing DNN accelerators."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("project"),
                                 QCoreApplication::translate("CommandLineOptions", "Project file (YAML) to open."),
                                 QStringLiteral("[PROJECT.yaml]"));
    const QCommandLineOption mapping(
        QStringLiteral("mapping"),
        QCoreApplication::translate("CommandLineOptions", "Mapping to show (default: the project's job mapping, else the first)."),
        QStringLiteral("NAME"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QCoreApplication::translate("CommandLineOptions",
                                    "Render the window once the evaluation has finished, save it as PNG and exit."),
        QStringLiteral("OUT.png"));
    parser.addOption(mapping);
    parser.addOption(screenshot);

    if (!parser.parse(arguments)) {
        *error = parser.errorText();
        return std::nullopt;
    }
    if (parser.isSet(QStringLiteral("help"))) parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version"))) parser.showVersion();

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        *error = QCoreApplication::translate("CommandLineOptions", "Expected at most one project file, got %1.")
                     .arg(positional.size());
        return std::nullopt;
    }
    CommandLineOptions options;
    options.projectPath = positional.value(0);
    options.mapping = parser.value(mapping);
    options.screenshotPath = parser.value(screenshot);
    if (!options.mapping.isEmpty() && options.projectPath.isEmpty()) {
        *error = QCoreApplication::translate("CommandLineOptions", "--mapping needs a project file.");
        return std::nullopt;
    }
    return options;
}

} // namespace nestor::app
