#include "RecoveryOffer.h"

#include "AutosaveController.h"
#include "MainWindow.h"
#include "ProjectDocument.h"

#include <QCoreApplication>
#include <QDir>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>

#include <algorithm>
#include <exception>

namespace nestor::app {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RecoveryOffer", text);
}

QString describe(const RecoveryInfo& info)
{
    return info.origin.isEmpty() ? tr("an untitled project") : QDir::toNativeSeparators(info.origin);
}

bool holdsNothingElse(const MainWindow& window, const QString& origin)
{
    const ProjectDocument* d = window.document();
    return !d->isModified() && (d->path().isEmpty() || d->path() == origin);
}

MainWindow* newWindowLike(const MainWindow& window)
{
    auto* w = new MainWindow;
    w->setAttribute(Qt::WA_DeleteOnClose);
    if (window.hasPersistentSettings()) w->usePersistentSettings();
    if (const AutosaveController* a = window.autosave()) w->enableAutosave(a->intervalMs());
    w->show();
    return w;
}

} // namespace

RecoveryChooser recoveryDialogChooser(QWidget* parent)
{
    return [parent](const RecoveryInfo& info) {
        QMessageBox box(QMessageBox::Question, tr("Restore unsaved changes?"),
                        tr("A Nestor session ended without saving its changes to %1.").arg(describe(info)),
                        QMessageBox::NoButton, parent);
        box.setObjectName(QStringLiteral("recoveryMessageBox"));
        const QString when = info.savedAt.isValid()
                                 ? QLocale().toString(info.savedAt.toLocalTime(), QLocale::ShortFormat)
                                 : tr("at an unknown time");
        box.setInformativeText(tr("Autosaved %1. Restore opens them as an unsaved project; Discard deletes them; "
                                  "Later keeps them for the next start.")
                                   .arg(when));
        QPushButton* restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
        QPushButton* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        QPushButton* later = box.addButton(tr("Later"), QMessageBox::RejectRole);
        box.setDefaultButton(restore);
        box.setEscapeButton(later);
        box.exec();
        if (box.clickedButton() == restore) return RecoveryChoice::Restore;
        if (box.clickedButton() == discard) return RecoveryChoice::Discard;
        return RecoveryChoice::Keep;
    };
}

RecoveryChooser fixedRecoveryChooser(RecoveryChoice choice)
{
    return [choice](const RecoveryInfo&) { return choice; };
}

QList<MainWindow*> offerRecoveries(MainWindow& window, const RecoveryChooser& choose, const RecoveryStore& store)
{
    store.importLegacy();
    std::vector<RecoveryClaim> claims = store.claimOrphans();
    const QString own = window.document()->path();
    std::stable_partition(claims.begin(), claims.end(),
                          [&](const RecoveryClaim& c) { return !own.isEmpty() && c.info().origin == own; });
    QList<MainWindow*> restored;
    for (RecoveryClaim& claim : claims) {
        const RecoveryChoice choice = choose(claim.info());
        if (choice == RecoveryChoice::Keep) continue;  // dropping the claim unlocks it; the files stay
        if (choice == RecoveryChoice::Discard) {
            claim.discard();
            continue;
        }
        Project project;
        try {
            project = claim.readProject();
        } catch (const std::exception& e) {
            window.reportError(tr("The unsaved changes to %1 cannot be restored; they are kept in %2")
                                   .arg(describe(claim.info()), QDir::toNativeSeparators(claim.projectFile())),
                               QString::fromStdString(e.what()));
            continue;
        }
        MainWindow* target = holdsNothingElse(window, claim.info().origin) ? &window : newWindowLike(window);
        target->restoreRecovery(std::move(claim), std::move(project));
        restored << target;
    }
    return restored;
}

} // namespace nestor::app
