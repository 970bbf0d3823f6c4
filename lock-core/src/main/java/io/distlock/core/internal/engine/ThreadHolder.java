package io.distlock.core.internal.engine;

/** The holder ids of threads: {@code clientId:threadId}, so the same thread holds apart in two clients. */
final class ThreadHolder {

    private ThreadHolder() {
    }

    /**
     * @param clientId a client's id
     * @return the holder id of the calling thread in that client
     */
    static String id(String clientId) {
        return clientId + ":" + Thread.currentThread().getId();
    }

    /**
     * @param holderId a holder id
     * @param clientId the id of the client it is used with
     * @return how messages name that holder: as the calling thread if it is that
     */
    static String describe(String holderId, String clientId) {
        return holderId.equals(id(clientId)) ? "the current thread (holder " + holderId + ")"
                : "holder '" + holderId + "'";
    }
}
