#pragma once
// A vector of trivially copyable elements that keeps up to N of them inline. The walker
// copies per-class states millions of times per search; with one or two classes (the common
// case) those copies then need no heap allocation.
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>

namespace nestor {

template <class T, std::size_t N>
class SmallVector {
    static_assert(std::is_trivially_copyable_v<T>, "elements are copied bytewise");

public:
    SmallVector() = default;
    explicit SmallVector(std::size_t n) { resize(n); }
    SmallVector(const SmallVector& o) { assignFrom(o); }
    SmallVector(SmallVector&& o) noexcept { moveFrom(o); }
    SmallVector& operator=(const SmallVector& o)
    {
        if (this != &o) {
            size_ = 0;
            assignFrom(o);
        }
        return *this;
    }
    SmallVector& operator=(SmallVector&& o) noexcept
    {
        if (this != &o) {
            release();
            moveFrom(o);
        }
        return *this;
    }
    ~SmallVector() { release(); }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T* data() { return ptr(); }
    const T* data() const { return ptr(); }
    T& operator[](std::size_t i) { return ptr()[i]; }
    const T& operator[](std::size_t i) const { return ptr()[i]; }
    T* begin() { return ptr(); }
    T* end() { return ptr() + size_; }
    const T* begin() const { return ptr(); }
    const T* end() const { return ptr() + size_; }

    T& back() { return ptr()[size_ - 1]; }
    const T& back() const { return ptr()[size_ - 1]; }
    void pop_back() { --size_; }
    void clear() { size_ = 0; }
    void resize(std::size_t n, const T& value = T{})
    {
        reserve(n);
        for (std::size_t i = size_; i < n; ++i) new (ptr() + i) T(value);
        size_ = n;
    }
    void push_back(const T& v)
    {
        if (size_ == capacity_) reserve(capacity_ * 2);
        new (ptr() + size_) T(v);
        ++size_;
    }
    void reserve(std::size_t n)
    {
        if (n <= capacity_) return;
        T* fresh = static_cast<T*>(::operator new(n * sizeof(T)));
        if (size_) std::memcpy(static_cast<void*>(fresh), ptr(), size_ * sizeof(T));
        release();
        heap_ = fresh;
        capacity_ = n;
    }

    bool operator==(const SmallVector& o) const
    {
        if (size_ != o.size_) return false;
        for (std::size_t i = 0; i < size_; ++i)
            if (!((*this)[i] == o[i])) return false;
        return true;
    }

private:
    T* ptr() { return heap_ ? heap_ : reinterpret_cast<T*>(inline_); }
    const T* ptr() const { return heap_ ? heap_ : reinterpret_cast<const T*>(inline_); }
    void release()
    {
        if (heap_) ::operator delete(heap_);
        heap_ = nullptr;
        capacity_ = N;
    }
    void assignFrom(const SmallVector& o)
    {
        reserve(o.size_);
        if (o.size_) std::memcpy(static_cast<void*>(ptr()), o.ptr(), o.size_ * sizeof(T));
        size_ = o.size_;
    }
    void moveFrom(SmallVector& o)
    {
        if (o.heap_) {
            heap_ = o.heap_;
            capacity_ = o.capacity_;
            size_ = o.size_;
            o.heap_ = nullptr;
            o.capacity_ = N;
            o.size_ = 0;
        } else {
            heap_ = nullptr;
            capacity_ = N;
            assignFrom(o);
        }
    }

    alignas(T) unsigned char inline_[N * sizeof(T)];
    T* heap_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = N;
};

} // namespace nestor
