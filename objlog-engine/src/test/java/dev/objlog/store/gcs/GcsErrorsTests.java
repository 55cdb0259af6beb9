package dev.objlog.store.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.storage.StorageException;
import dev.objlog.store.AccessDeniedException;
import dev.objlog.store.StoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GcsErrorsTests {

  @ParameterizedTest(name = "{0} needs {1}")
  @CsvSource({
    "GET logs/k, storage.objects.get",
    "HEAD logs/k, storage.objects.get",
    "GET if changed logs/k, storage.objects.get",
    "LIST logs/p*, storage.objects.list",
    "PUT if absent logs/k, storage.objects.create",
    "PUT if generation 7 logs/k, storage.objects.create and storage.objects.delete",
    "streaming the upload of logs/k, storage.objects.create",
    "DELETE logs/k, storage.objects.delete",
  })
  void aDeniedRequestNamesThePermissionItsKindNeeds(String what, String permission) {
    StoreException e = GcsErrors.translate(what, "k", new StorageException(403, "Forbidden"), true, "logs");
    assertThat(e).isInstanceOfSatisfying(AccessDeniedException.class, denied -> {
      assertThat(denied.permission()).isEqualTo(permission);
      assertThat(denied.operation()).isEqualTo(what);
      assertThat(denied.key()).isEqualTo("k");
    });
    assertThat(e).hasMessageContaining(permission).hasMessageContaining("docs/stores/gcs.md");
  }

  @Test
  void thePermissionGcsNamesInItsAnswerWins() {
    StoreException e = GcsErrors.translate(
        "PUT if generation 7 logs/k", "k",
        new StorageException(403, "sa@p.iam.gserviceaccount.com does not have storage.objects.delete access to"
            + " the Google Cloud Storage object."),
        true, "logs");
    assertThat(((AccessDeniedException) e).permission()).isEqualTo("storage.objects.delete");
  }

  @Test
  void aRateLimitAnswerIsNotAMissingPermission() {
    StorageException throttled = new StorageException(403, "rate limit", "rateLimitExceeded", null);
    assertThat(GcsErrors.translate("GET logs/k", "k", throttled, false, "logs")).isNotInstanceOf(AccessDeniedException.class);
  }
}
