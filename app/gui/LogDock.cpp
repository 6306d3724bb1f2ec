#include "LogDock.h"

#include <QPlainTextEdit>
#include <QTime>

namespace nestor::app {

LogDock::LogDock(QWidget* parent) : QDockWidget(tr("Log"), parent), text_(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("logDock"));
    text_->setReadOnly(true);
    text_->setMaximumBlockCount(5000);
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    setWidget(text_);
}

void LogDock::append(Severity severity, const QString& message)
{
    QString prefix;
    QString color;
    switch (severity) {
    case Severity::Info: break;
    case Severity::Warning: prefix = tr("warning: "); color = QStringLiteral("#8a5a00"); break;
    case Severity::Error: prefix = tr("error: "); color = QStringLiteral("#b00020"); ++errors_; break;
    }
    const QString time = QTime::currentTime().toString(QStringLiteral("HH:mm:ss"));
    QString html = QStringLiteral("<span style=\"color:gray\">%1</span> ").arg(time);
    const QString body = (prefix + message).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>&nbsp;&nbsp;"));
    html += color.isEmpty() ? body : QStringLiteral("<span style=\"color:%1\">%2</span>").arg(color, body);
    text_->appendHtml(html);
}

QString LogDock::plainText() const
{
    return text_->toPlainText();
}

} // namespace nestor::app
