// An arena bot in Java: a gRPC server of arena.bot.v1.Bot (proto/arena/bot/v1/bot.proto).
// Edit choose; `sh build.sh` builds it, `arena validate .` builds and checks it.

import arena.bot.v1.BotGrpc;
import arena.bot.v1.DecisionReply;
import arena.bot.v1.DecisionRequest;
import arena.bot.v1.EndGameReply;
import arena.bot.v1.EndGameRequest;
import arena.bot.v1.GameEvent;
import arena.bot.v1.HandshakeReply;
import arena.bot.v1.HandshakeRequest;
import arena.bot.v1.ProtocolVersion;
import arena.bot.v1.StartGameReply;
import arena.bot.v1.StartGameRequest;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public final class Bot extends BotGrpc.BotImplBase {
  /** What this seat knows of one game: its StartGame and every event received so far. */
  static final class Game {
    final StartGameRequest start; // game, seat, players, options, time control
    final List<GameEvent> history = new ArrayList<>(); // public history as this seat saw it

    Game(StartGameRequest start) {
      this.start = start;
    }
  }

  /**
   * The index of the action to play in request.getLegalActionsList(), before deadlineNanos
   * (System.nanoTime()). request.getDecisionKind() names the decision, request.getView() holds
   * this seat's view (getOregon(), getOgallala() or getMerkator()); docs/rules/ in the arena's
   * repository explains every kind. This one picks at random.
   */
  static int choose(Game game, DecisionRequest request, Random random, long deadlineNanos) {
    return random.nextInt(request.getLegalActionsCount());
  }

  private final Map<String, Game> games = new HashMap<>(); // by game_id: a process may play
  private final Random random = new Random(seed()); //        several games, one after another
  private final HandshakeReply identity;

  Bot(HandshakeReply identity) {
    this.identity = identity;
  }

  @Override
  public void handshake(HandshakeRequest request, StreamObserver<HandshakeReply> reply) {
    reply.onNext(identity);
    reply.onCompleted();
  }

  @Override
  public synchronized void startGame(StartGameRequest request, StreamObserver<StartGameReply> reply) {
    games.put(request.getGameId(), new Game(request));
    reply.onNext(StartGameReply.getDefaultInstance());
    reply.onCompleted();
  }

  @Override
  public synchronized void decide(DecisionRequest request, StreamObserver<DecisionReply> reply) {
    // The reply must arrive within the move limit plus what is left of the bank: keep a margin.
    long budget = (long) (request.getClock().getMoveSeconds() * 0.8e9);
    long deadline = System.nanoTime() + budget;
    Game game = games.get(request.getGameId());
    if (game == null) {
      reply.onError(Status.FAILED_PRECONDITION.withDescription("no StartGame").asException());
      return;
    }
    game.history.addAll(request.getEventsList());
    try {
      int index = choose(game, request, random, deadline);
      reply.onNext(
          DecisionReply.newBuilder()
              .setDecisionNumber(request.getDecisionNumber())
              .setActionIndex(index)
              .build());
      reply.onCompleted();
    } catch (RuntimeException error) { // else gRPC swallows it: the log says why
      error.printStackTrace();
      reply.onError(Status.INTERNAL.withDescription(error.toString()).asException());
    }
  }

  @Override
  public synchronized void endGame(EndGameRequest request, StreamObserver<EndGameReply> reply) {
    games.remove(request.getGameId()); // request.getResultsList(): every seat's score and rank
    reply.onNext(EndGameReply.getDefaultInstance());
    reply.onCompleted();
  }

  /** Fails every call whose x-arena-token is not ARENA_BOT_TOKEN. */
  static final class TokenCheck implements ServerInterceptor {
    private static final Metadata.Key<String> KEY =
        Metadata.Key.of("x-arena-token", Metadata.ASCII_STRING_MARSHALLER);
    private final String token = System.getenv().getOrDefault("ARENA_BOT_TOKEN", "");

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      if (!token.equals(headers.get(KEY) == null ? "" : headers.get(KEY))) {
        call.close(Status.UNAUTHENTICATED.withDescription("wrong arena token"), new Metadata());
        return new ServerCall.Listener<Q>() {};
      }
      return next.startCall(call, headers);
    }
  }

  static long seed() { // same seed, same game
    return Long.parseLong(System.getenv().getOrDefault("ARENA_BOT_SEED", "0"));
  }

  /** The handshake's reply: bot.toml's name, version and games. */
  static HandshakeReply readManifest() throws IOException {
    String toml = Files.readString(Path.of("bot.toml"));
    HandshakeReply.Builder reply =
        HandshakeReply.newBuilder().setProtocolVersion(ProtocolVersion.PROTOCOL_VERSION_1);
    reply.setName(manifestLine(toml, "name").get(0));
    reply.setVersion(manifestLine(toml, "version").get(0));
    reply.addAllGames(manifestLine(toml, "games"));
    return reply.build();
  }

  static List<String> manifestLine(String toml, String key) {
    // an array may span lines (games = [ "oregon", ... ]), up to its closing bracket
    Matcher line =
        Pattern.compile("(?m)^" + key + "\\s*=\\s*(\\[[^\\]]*\\]|.*)$").matcher(toml);
    if (!line.find()) throw new IllegalStateException("bot.toml has no " + key);
    List<String> values = new ArrayList<>();
    Matcher quoted = Pattern.compile("\"([^\"]*)\"").matcher(line.group(1));
    while (quoted.find()) values.add(quoted.group(1));
    return values;
  }

  public static void main(String[] args) throws Exception {
    String address = System.getenv("ARENA_BOT_ADDRESS");
    Server server;
    if (address.startsWith("unix:")) {
      // grpc-java listens on a Unix socket only through Netty's native epoll library, which
      // Debian's Netty lacks: serve on this sandbox's own loopback, relay the socket to it.
      server = start(new InetSocketAddress("127.0.0.1", 0));
      UnixRelay.start(Path.of(address.substring("unix:".length())), server.getPort());
    } else {
      int colon = address.lastIndexOf(':');
      server =
          start(
              new InetSocketAddress(
                  address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))));
    }
    // The arena ends a bot with SIGTERM: the JVM runs this hook and exits.
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
    server.awaitTermination();
  }

  static Server start(InetSocketAddress address) throws IOException {
    return NettyServerBuilder.forAddress(address)
        .addService(ServerInterceptors.intercept(new Bot(readManifest()), new TokenCheck()))
        .build()
        .start();
  }

  /** Accepts connections on a Unix socket and passes their bytes to and from a TCP port. */
  static final class UnixRelay {
    static void start(Path socket, int port) throws IOException {
      ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      listener.bind(UnixDomainSocketAddress.of(socket));
      daemon(
          () -> {
            while (true) {
              SocketChannel outside = listener.accept();
              SocketChannel inside = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
              inside.socket().setTcpNoDelay(true);
              daemon(() -> pump(outside, inside));
              daemon(() -> pump(inside, outside));
            }
          });
    }

    interface Body {
      void run() throws IOException;
    }

    static void daemon(Body body) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  body.run();
                } catch (IOException closed) {
                  // the other side went away: the connection ends
                }
              });
      thread.setDaemon(true);
      thread.start();
    }

    static void pump(SocketChannel from, SocketChannel to) throws IOException {
      ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
      try (from; to) {
        while (from.read(buffer) >= 0) {
          buffer.flip();
          while (buffer.hasRemaining()) to.write(buffer);
          buffer.clear();
        }
      }
    }
  }
}
