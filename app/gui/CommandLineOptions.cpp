#include "CommandLineOptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>

namespace nestor::app {

bool CommandLineOptions::parseWindowSize(const QString& text, QSize* size)
{
    const QStringList parts = text.trimmed().toLower().split(QLatin1Char('x'));
    if (parts.size() != 2) return false;
    bool okW = false, okH = false;
    const int w = parts[0].toInt(&okW), h = parts[1].toInt(&okH);
    if (!okW || !okH || w < 640 || h < 480 || w > 7680 || h > 4320) return false;
    *size = QSize(w, h);
    return true;
}

namespace {
QString tr(const char* text)
{
    return QCoreApplication::translate("CommandLineOptions", text);
}
} // namespace

QStringList CommandLineOptions::viewNames()
{
    return {QStringLiteral("mapping"), QStringLiteral("dataflow"), QStringLiteral("roofline"), QStringLiteral("capacity"), QStringLiteral("layers"),
            QStringLiteral("architecture"), QStringLiteral("compare"), QStringLiteral("network"), QStringLiteral("search"),
            QStringLiteral("simulator"), QStringLiteral("simulator-network"), QStringLiteral("simulator-roofline"),
            QStringLiteral("simulator-sweep"), QStringLiteral("solver")};
}

QStringList CommandLineOptions::recoverActions()
{
    return {QStringLiteral("ask"), QStringLiteral("restore"), QStringLiteral("keep"), QStringLiteral("discard")};
}

CommandLineOptions CommandLineOptions::parse(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(tr("Nestor: a workbench for designing DNN accelerators."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("project"), tr("Project file (YAML) to open."),
                                 QStringLiteral("[PROJECT.yaml]"));
    const QCommandLineOption mapping(QStringLiteral("mapping"),
                                     tr("Mapping to show (default: the project's job mapping, else the first)."),
                                     QStringLiteral("NAME"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        tr("Render the window once the evaluation has finished, save it as PNG and exit."),
                                        QStringLiteral("OUT.png"));
    const QCommandLineOption view(QStringLiteral("view"),
                                  tr("View to show: mapping, dataflow (steps through the mapping on the PE array), roofline, capacity, layers, architecture, compare "
                                     "(pins the project's mappings), network (evaluates it), search (runs a small search) or simulator "
                                     "(runs the bundled VTA program examples/vta/double-buffer.json) simulator-network (simulates ResNet-18 on VTA), "
                                     "simulator-roofline (its VTA roofline) simulator-sweep (the area-vs-cycles sweep of VTA configurations) or solver (Thistle on the job's layer; "
                                     "the architecture must be DRAM -> SRAM -> registers per PE)."),
                                  QStringLiteral("NAME"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  tr("Window size for --screenshot, e.g. 1366x768 (default 1760x1000)."),
                                  QStringLiteral("WxH"));
    const QCommandLineOption recover(QStringLiteral("recover"),
                                     tr("Unsaved changes left by sessions that ended without saving: ask (default), "
                                        "restore (each as an unsaved project), keep (offer again next time) or discard."),
                                     QStringLiteral("ACTION"), QStringLiteral("ask"));
    parser.addOption(mapping);
    parser.addOption(screenshot);
    parser.addOption(view);
    parser.addOption(recover);
    parser.addOption(size);

    CommandLineOptions options;
    const bool parsed = parser.parse(arguments);
    const QString program = arguments.isEmpty() ? QStringLiteral("nestor") : QFileInfo(arguments.first()).fileName();
    if (parser.isSet(help) || parser.isSet(QStringLiteral("help-all"))) {
        options.action = Action::ShowHelp;
        options.message = parser.helpText().replace(QStringLiteral("<executable_name>"), program);
        return options;
    }
    if (parser.isSet(version)) {
        options.action = Action::ShowVersion;
        options.message = QStringLiteral("%1 %2\n").arg(program, QStringLiteral(NESTOR_VERSION));
        return options;
    }
    options.action = Action::UsageError;
    const QStringList positional = parser.positionalArguments();
    if (!parsed) {
        options.message = parser.errorText();
    } else if (positional.size() > 1) {
        options.message = tr("Expected at most one project file, got %1.").arg(positional.size());
    } else if (parser.isSet(view) && !viewNames().contains(parser.value(view))) {
        options.message = tr("Unknown view \"%1\" (%2).").arg(parser.value(view), viewNames().join(QStringLiteral(", ")));
    } else if (!recoverActions().contains(parser.value(recover))) {
        options.message = tr("Unknown --recover action \"%1\" (%2).")
                              .arg(parser.value(recover), recoverActions().join(QStringLiteral(", ")));
    } else if (parser.isSet(mapping) && positional.isEmpty()) {
        options.message = tr("--mapping needs a project file.");
    } else if (parser.isSet(size) && !parseWindowSize(parser.value(size), &options.windowSize)) {
        options.message = tr("--size wants WIDTHxHEIGHT with each between 640 and 7680 (got \"%1\").").arg(parser.value(size));
    } else {
        options.action = Action::Run;
        options.projectPath = positional.value(0);
        options.mapping = parser.value(mapping);
        options.screenshotPath = parser.value(screenshot);
        options.view = parser.value(view);
        options.recover = parser.value(recover);
    }
    return options;
}

} // namespace nestor::app
