#pragma once
// At start: every orphaned recovery entry (see document/RecoveryStore.h) is offered to a
// chooser: restore it (an unsaved document with its original path), discard it, or keep it for
// the next start. The chooser is a dialog, or a fixed answer (`nestor --recover ...`, tests).
#include "RecoveryStore.h"

#include <QList>

#include <functional>

class QWidget;

namespace nestor::app {

class MainWindow;

enum class RecoveryChoice { Restore, Discard, Keep };
using RecoveryChooser = std::function<RecoveryChoice(const RecoveryInfo&)>;

// Asks with a message box (Restore / Discard / Later) over `parent`.
RecoveryChooser recoveryDialogChooser(QWidget* parent);
RecoveryChooser fixedRecoveryChooser(RecoveryChoice choice);

// Offers the orphans of `store`, the entry of `window`'s own file first. A restored entry goes
// into `window` if it has no unsaved changes and holds nothing else (untitled, or the recovered
// file itself), else into a new window like it (deleted on close). A recovery that cannot be
// read is reported and kept. Returns the windows that received a recovery.
QList<MainWindow*> offerRecoveries(MainWindow& window, const RecoveryChooser& choose,
                                   const RecoveryStore& store = RecoveryStore());

} // namespace nestor::app
