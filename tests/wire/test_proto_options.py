"""Every .proto file names its package for the languages whose generators need it (go_package,
java_package with java_multiple_files, csharp_namespace), all files alike: a bot author runs
protoc-gen-go and the others without mapping files by hand."""

import pytest

from arena.bot.v1 import bot_pb2, merkator_pb2, ogallala_pb2, oregon_pb2

FILES = [bot_pb2, oregon_pb2, ogallala_pb2, merkator_pb2]


@pytest.mark.parametrize("module", FILES, ids=lambda m: m.DESCRIPTOR.name)
def test_every_file_sets_the_language_options(module):
    options = module.DESCRIPTOR.GetOptions()
    assert options.go_package == "arena/bot/v1;botv1"
    assert options.java_package == "arena.bot.v1" and options.java_multiple_files
    assert options.csharp_namespace == "Arena.Bot.V1"


def test_requests_name_the_seat_and_carry_events():
    for message in (bot_pb2.DecisionRequest, bot_pb2.EndGameRequest):
        fields = message.DESCRIPTOR.fields_by_name
        assert fields["seat"].type == fields["seat"].TYPE_INT32
        assert fields["events"].message_type is bot_pb2.GameEvent.DESCRIPTOR
    members = {f.name for f in bot_pb2.GameEvent.DESCRIPTOR.oneofs_by_name["game"].fields}
    assert members == {f.name for f in bot_pb2.GameView.DESCRIPTOR.oneofs_by_name["game"].fields}
