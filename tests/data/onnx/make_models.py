#!/usr/bin/env python3
"""Writes the small ONNX models of tests/data/onnx with a hand-written protobuf encoder (no onnx
package needed; field numbers from onnx/onnx.proto). Initializers carry dims only, no weights.
Run from this folder: python3 make_models.py"""


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def key(field, wire):
    return varint((field << 3) | wire)


def intf(field, v):
    return key(field, 0) + varint(v)


def lenf(field, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return key(field, 2) + varint(len(payload)) + payload


def tensor(name, dims, data_type=1):  # TensorProto: dims 1, data_type 2, name 8
    return b"".join(intf(1, d) for d in dims) + intf(2, data_type) + lenf(8, name)


def attr_ints(name, values):  # AttributeProto: name 1, ints 8, type 20 (INTS = 7)
    return lenf(1, name) + b"".join(intf(8, v) for v in values) + intf(20, 7)


def attr_int(name, value):  # i 3, type INT = 2
    return lenf(1, name) + intf(3, value) + intf(20, 2)


def node(op, name, inputs, outputs, attrs=()):  # NodeProto: input 1, output 2, name 3, op_type 4, attribute 5
    return (b"".join(lenf(1, i) for i in inputs) + b"".join(lenf(2, o) for o in outputs) + lenf(3, name) +
            lenf(4, op) + b"".join(lenf(5, a) for a in attrs))


def value_info(name, dims):  # ValueInfoProto{name 1, type 2}, TypeProto.tensor_type 1, shape 2, dim 1
    shape = b"".join(lenf(1, lenf(2, d) if isinstance(d, str) else intf(1, d)) for d in dims)
    return lenf(1, name) + lenf(2, lenf(1, intf(1, 1) + lenf(2, shape)))


def model(graph_name, nodes, initializers, inputs, outputs):  # GraphProto: node 1, name 2, initializer 5, input 11, output 12
    g = (b"".join(lenf(1, n) for n in nodes) + lenf(2, graph_name) + b"".join(lenf(5, t) for t in initializers) +
         b"".join(lenf(11, i) for i in inputs) + b"".join(lenf(12, o) for o in outputs))
    return intf(1, 7) + lenf(2, "nestor-tests") + lenf(7, g)  # ModelProto: ir_version 1, producer 2, graph 7


def conv(name, x, w, y, k, s, p, group=1):
    return node("Conv", name, [x, w], [y], [attr_ints("kernel_shape", [k, k]), attr_ints("strides", [s, s]),
                                            attr_ints("pads", [p] * 4), attr_int("group", group)])


# A small CNN with a symbolic batch: conv 3x3 (32 -> 32 x 32), two identical 3x3 convs (merged
# into one workload with repeat 2), max pool, global average pool, flatten, fc.
nodes = [
    conv("stem", "image", "w0", "a", 3, 1, 1),
    node("Relu", "relu0", ["a"], ["ar"]),
    conv("body", "ar", "w1", "b", 3, 1, 1),
    node("Relu", "relu1", ["b"], ["br"]),
    conv("body_again", "br", "w1", "c", 3, 1, 1),
    node("MaxPool", "pool", ["c"], ["p"], [attr_ints("kernel_shape", [2, 2]), attr_ints("strides", [2, 2])]),
    node("GlobalAveragePool", "gap", ["p"], ["g"]),
    node("Flatten", "flat", ["g"], ["f"]),
    node("Gemm", "classifier", ["f", "wf"], ["logits"], [attr_int("transB", 1)]),
]
inits = [tensor("w0", [16, 3, 3, 3]), tensor("w1", [16, 16, 3, 3]), tensor("wf", [10, 16])]
with open("tiny-cnn.onnx", "wb") as f:
    f.write(model("tiny_cnn", nodes, inits, [value_info("image", ["N", 3, 32, 32])], [value_info("logits", ["N", 10])]))
