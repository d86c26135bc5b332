"""The code generated from proto/arena/bot/v1/*.proto by scripts/gen-proto (do not edit): one
``<file>_pb2`` module of messages and one ``<file>_pb2_grpc`` of service stubs per .proto file."""
