import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import sun.misc.Signal;
import sun.misc.SignalHandler;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local bound to 127.0.0.1 only (infra/local/dynamodb-local.ts). DynamoDB Local has no option for the
 * address it listens on and its Jetty connector binds every interface, which would expose the unauthenticated
 * local database to the network. This launcher builds the server exactly as DynamoDB Local's own main does
 * (same command-line options), sets the connector's host to loopback, then starts it. Its compiled class is
 * committed in infra/local/java/ (see infra/local/dynamodb-local-launch.ts for the javac line that rebuilds it).
 *
 * With -Dloopback.ignoreInterrupt=true (what npm start passes) the engine ignores SIGINT: Ctrl-C in a terminal
 * reaches every process of the foreground group at once, and the engine must outlive the runners that still write
 * to it while npm start stops them; npm start then stops the engine itself with SIGTERM (docs/guarantees.md).
 */
public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    if (Boolean.getBoolean("loopback.ignoreInterrupt")) Signal.handle(new Signal("INT"), SignalHandler.SIG_IGN);
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    int bound = 0;
    for (Connector connector : server.getConnectors()) {
      if (connector instanceof ServerConnector serverConnector) {
        serverConnector.setHost("127.0.0.1");
        bound++;
      }
    }
    if (bound == 0) throw new IllegalStateException("no connector to bind to 127.0.0.1");
    proxy.start();
  }
}
