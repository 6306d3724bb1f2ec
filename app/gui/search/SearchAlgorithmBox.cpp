#include "SearchAlgorithmBox.h"

#include "search/SearchAlgorithm.h"

#include <QComboBox>

namespace nestor::app {

void fillSearchAlgorithms(QComboBox* box, const QString& current)
{
    for (const SearchAlgorithmInfo& a : searchAlgorithms()) {
        box->addItem(QString::fromStdString(a.name));
        box->setItemData(box->count() - 1, QString::fromStdString(a.description), Qt::ToolTipRole);
    }
    box->setCurrentText(current);
}

} // namespace nestor::app
