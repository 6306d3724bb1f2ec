#pragma once
// Sizes the columns of an item view so that all of them fit its viewport, without horizontal
// scrolling: each column gets the width of its exact contents when there is room for all;
// when there is not, every column gets at least its compact width (compact numbers, see
// CompactTextDelegate; the header stays whole) and the room left goes to the columns in proportion to what they lack. Installs a
// CompactTextDelegate on the view and refits when the viewport is resized or the model reset.
#include <QObject>

#include <utility>
#include <vector>

class QAbstractItemView;
class QHeaderView;

namespace nestor::widgets {

class CompactTextDelegate;

class ColumnFitter : public QObject {
    Q_OBJECT
public:
    ColumnFitter(QAbstractItemView* view, QHeaderView* header);

    // Sets the section sizes for the current viewport width and contents.
    void fit();
    // A column of names the view may elide (its tooltip holds the whole name): it can shrink
    // to `width` pixels when the others need the room.
    void setElidableColumn(int column, int width);
    // The width the whole view needs (frame and a vertical scroll bar included) to show every
    // column exactly, and to show every column at its compact width.
    int preferredViewWidth() const;
    int minimumViewWidth() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Widths {
        std::vector<int> preferred, minimum;  // per column; 0 for hidden columns
    };
    Widths measure() const;
    int viewChrome() const;

    QAbstractItemView* view_;
    QHeaderView* header_;
    CompactTextDelegate* delegate_;
    bool fitting_ = false;
    std::vector<std::pair<int, int>> elidable_;  // column, narrowest width
};

} // namespace nestor::widgets
